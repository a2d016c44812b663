import { Badge, Button, Group, Paper, PasswordInput, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import type { z } from 'zod';
import { updateSmsNumberSchema } from '@lampstand/api/schemas/sms-number';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatDate } from '../../ui/format';
import { useChurchTimeZone } from '../../lib/time-zone';
import { CopyField } from '../social-blast/social-settings';

type TextingForm = z.input<typeof updateSmsNumberSchema> & { authToken: string };

/**
 * Settings → Texting: the church's own texting number (a Twilio number or Messaging
 * Service of its own, with its Account SID and Auth Token), checked with Twilio on save; or the
 * shared number, where a reply reaches the church only when no other church texted the person, and
 * keywords are off.
 */
export function TextingSection() {
  const timeZone = useChurchTimeZone();
  const texting = trpc.settings.texting.useQuery();
  const utils = trpc.useUtils();
  const form = useForm<TextingForm>({
    mode: 'controlled',
    initialValues: { fromNumber: '', messagingServiceSid: '', accountSid: '', authToken: '' },
    validate: schemaResolver(updateSmsNumberSchema, { sync: true }),
  });
  useEffect(() => {
    const t = texting.data;
    if (t)
      form.setValues({
        fromNumber: t.fromNumber ?? '',
        messagingServiceSid: t.messagingServiceSid ?? '',
        accountSid: t.accountSid ?? '',
        authToken: '',
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [texting.data]);
  const onSaved = (data: NonNullable<typeof texting.data>) => {
    utils.settings.texting.setData(undefined, data);
    void utils.smsKeywords.list.invalidate();
  };
  const save = useSave(trpc.settings.updateTexting, {
    success: (t) => ['Texting number saved', `Twilio confirmed ${t.fromNumber ?? t.messagingServiceSid}.`],
    errorTitle: 'Failed to save the texting number',
    form,
    fieldErrorsOnly: true,
    onSuccess: onSaved,
  });
  const remove = useSave(trpc.settings.removeTexting, {
    success: ['Back on the shared number', 'Your own number and its credentials were removed.'],
    errorTitle: 'Failed to remove the texting number',
    onSuccess: onSaved,
  });
  const t = texting.data;
  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="texting">
      <Stack gap="xs" mb="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            Texting
          </Title>
          {t ? (
            <Badge color={t.mode === 'own' ? 'green' : 'gray'} variant="light">
              {t.mode === 'own' ? 'Your own number' : 'Shared number'}
            </Badge>
          ) : null}
        </Group>
        {t?.mode === 'own' ? (
          <Text size="sm" c="gray.7">
            Your texts go from {t.fromNumber ?? `Messaging Service ${t.messagingServiceSid}`} through your own Twilio
            account, and every reply to it reaches your inbox. Keywords work on it.
            {t.checkedAt ? ` Twilio confirmed it on ${formatDate(t.checkedAt, timeZone)}.` : ''}
          </Text>
        ) : t ? (
          <Text size="sm" c="gray.7">
            Your texts go from the shared number {t.sharedNumber}. A reply reaches you only when no other church texted
            the person in the last 30 days (otherwise they are asked which church it is for), and keywords are off. Add
            a Twilio number of your own to receive every reply and use keywords.
          </Text>
        ) : null}
      </Stack>
      {texting.isLoading || !t ? (
        <Skeleton h={200} />
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit((v) =>
            save.mutate({
              fromNumber: v.fromNumber || null,
              messagingServiceSid: v.messagingServiceSid || null,
              accountSid: v.accountSid,
              ...(v.authToken ? { authToken: v.authToken } : {}),
            }),
          )}
        >
          <Stack>
            <TextInput
              label="Twilio number"
              description="Your own number in international format, e.g. +15551234567."
              autoComplete="off"
              {...form.getInputProps('fromNumber')}
            />
            <TextInput
              label="Messaging Service SID"
              description="Instead of a number: your Messaging Service (MG…)."
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('messagingServiceSid')}
            />
            <TextInput
              label="Account SID"
              description="From your Twilio console (AC…)."
              withAsterisk
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('accountSid')}
            />
            <PasswordInput
              label="Auth Token"
              description={
                t.authTokenHint
                  ? `Saved (ending ${t.authTokenHint.replace('…', '')}). Leave empty to keep it.`
                  : 'Stored encrypted; never shown again.'
              }
              withAsterisk={!t.authTokenHint}
              autoComplete="new-password"
              {...form.getInputProps('authToken')}
            />
            <CopyField label="Incoming messages webhook" value={t.inboundWebhookUrl} />
            <Text size="xs" c="gray.7">
              Set this address (HTTP POST) as &lsquo;A message comes in&rsquo; on your number or Messaging Service.
            </Text>
            <Group justify="flex-end" gap="xs">
              {t.mode === 'own' ? (
                <Button
                  variant="default"
                  color="red"
                  loading={remove.isPending}
                  onClick={() =>
                    confirmDestructive({
                      title: 'Use the shared number?',
                      text: 'Your texts will go from the shared number, replies reach you only when no other church texted the person, and your keywords stop working.',
                      confirm: 'Use the shared number',
                      onConfirm: () => remove.mutate(),
                    })
                  }
                >
                  Use the shared number
                </Button>
              ) : null}
              <Button type="submit" loading={save.isPending}>
                Save and check with Twilio
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
