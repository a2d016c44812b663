import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconExternalLink } from '@tabler/icons-react';
import { useEffect } from 'react';
import { updateChurchProfileSchema } from '@lampstand/api/schemas/church-profile';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { ImageUpload, type UploadedImage } from '../../ui/image-upload';

/**
 * Settings → Public profile: the church's public home at /c/{handle}: its handle
 * (suggested from the church's name until saved), a short description, logo, address, service
 * times and website. Lists are made public in their own dialog (Contacts → Lists).
 */
export function PublicProfileSection() {
  const profile = trpc.settings.publicProfile.useQuery();
  const utils = trpc.useUtils();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      handle: '',
      description: '',
      logo: null as UploadedImage | null,
      address: '',
      serviceTimes: '',
      website: '',
    },
    validate: schemaResolver(updateChurchProfileSchema, { sync: true }),
  });
  useEffect(() => {
    const p = profile.data;
    if (p)
      form.setValues({
        handle: p.handle,
        description: p.description,
        logo: p.logo ? { url: p.logo.url, thumbnailUrl: p.logo.thumbnailUrl ?? undefined } : null,
        address: p.address,
        serviceTimes: p.serviceTimes,
        website: p.website ?? '',
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [profile.data]);
  const save = useSave(trpc.settings.updatePublicProfile, {
    success: (p) => ['Public profile saved', `Your church's page is at ${p.url}`],
    errorTitle: 'Failed to save public profile',
    form,
    fieldErrorsOnly: true,
    onSuccess: (data) => utils.settings.publicProfile.setData(undefined, data),
  });
  const p = profile.data;
  return (
    <Paper withBorder p="lg" maw={720} mt="lg">
      <Stack gap="xs" mb="md">
        <Title order={2} size="h4">
          Public profile
        </Title>
        <Text size="sm" c="gray.7">
          Your church&apos;s own page: who you are, when you meet, your published pages and projects, and the lists
          people may join themselves.
        </Text>
        {p?.saved ? (
          <Anchor
            href={p.url}
            target="_blank"
            size="sm"
            style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}
          >
            View your public page <IconExternalLink size={14} aria-hidden />
          </Anchor>
        ) : null}
      </Stack>
      {profile.isLoading ? (
        <Skeleton h={200} />
      ) : (
        <form noValidate onSubmit={form.onSubmit((v) => save.mutate({ ...v, logo: v.logo }))}>
          <Stack>
            <TextInput
              label="Handle"
              description={`Your page's address: ${window.location.origin}/c/${form.values.handle || 'your-handle'}`}
              withAsterisk
              autoCapitalize="none"
              spellCheck={false}
              {...form.getInputProps('handle')}
            />
            <Textarea label="Short description" autosize minRows={2} {...form.getInputProps('description')} />
            <ImageUpload label="Logo" value={form.values.logo} onChange={(logo) => form.setFieldValue('logo', logo)} />
            <Textarea
              label="Address"
              autosize
              minRows={2}
              placeholder={'1 Church Street\nSpringfield'}
              {...form.getInputProps('address')}
            />
            <Textarea
              label="Service times"
              autosize
              minRows={2}
              placeholder={'Sundays 9:00 and 10:30 am\nWednesdays 7 pm, prayer'}
              {...form.getInputProps('serviceTimes')}
            />
            <TextInput label="Website" placeholder="example.org" {...form.getInputProps('website')} />
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                Save public profile
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
