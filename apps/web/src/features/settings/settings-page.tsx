import { Button, Group, Paper, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { updateChurchSettingsSchema } from '@lampstand/api/schemas/email-campaigns';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { zodValidate } from '../../ui/zod-form';
import { SocialSettingsSection } from '../social-blast/social-settings';
import { GivingSettings } from '../show-up/giving-settings';
import { ApiKeysSection } from './api-keys-section';

export function SettingsPage() {
  const settings = trpc.settings.get.useQuery();
  const utils = trpc.useUtils();
  const form = useForm({
    mode: 'controlled',
    initialValues: { postalAddress: '' },
    validate: zodValidate(updateChurchSettingsSchema),
  });
  useEffect(() => {
    if (settings.data) form.setValues({ postalAddress: settings.data.postalAddress ?? '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.data]);
  const save = trpc.settings.update.useMutation({
    onSuccess: (data) => {
      utils.settings.get.setData(undefined, data);
      notifySuccess('Settings saved', 'Your campaign footer now shows this address.');
    },
    onError: (err) => notifyError('Failed to save settings', errorMessage(err)),
  });
  return (
    <>
      <PageHeader title="Settings" description="Details about your church used across Lampstand." />
      <Paper withBorder p="lg" maw={720}>
        {settings.isLoading ? (
          <Skeleton h={120} />
        ) : (
          <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
            <Stack>
              <Text size="sm">
                <b>Church name:</b> {settings.data?.churchName}
              </Text>
              <Textarea
                label="Postal address"
                description="Shown in the footer of every email campaign, as anti-spam laws require."
                autosize
                minRows={3}
                placeholder={'1 Church Street\nSpringfield NSW 2000'}
                {...form.getInputProps('postalAddress')}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
      <SocialSettingsSection />
      <GivingSettings />
      <ApiKeysSection />
    </>
  );
}
