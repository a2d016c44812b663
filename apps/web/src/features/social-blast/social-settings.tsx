import { Alert, Button, Code, CopyButton, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { updateSocialSettingsSchema } from '@lampstand/api/schemas/social-posts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { ForDeveloper } from '../../ui/for-developer';

export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput label={label} value={value} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            variant="default"
            onClick={copy}
            leftSection={copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * Settings → Social: the outgoing webhook that publishes posts (its signing secret shown once,
 * regenerable) and the calendar feed address (regenerable).
 */
export function SocialSettingsSection() {
  const utils = trpc.useUtils();
  const settings = trpc.socialPosts.settings.useQuery();
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { webhookUrl: '' },
    validate: schemaResolver(updateSocialSettingsSchema, { sync: true }),
  });
  useEffect(() => {
    if (settings.data) form.setValues({ webhookUrl: settings.data.webhookUrl ?? '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.data?.webhookUrl]);
  const save = useSave(trpc.socialPosts.updateSettings, {
    success: (data) => [
      'Settings saved',
      data.webhookUrl ? 'Scheduled posts will publish through this webhook.' : 'Publishing is off.',
    ],
    errorTitle: 'Failed to save settings',
    onSuccess: async (data) => {
      if (data.webhookSecret) setSecret(data.webhookSecret);
      await utils.socialPosts.settings.invalidate();
    },
  });
  const newSecret = useSave(trpc.socialPosts.regenerateWebhookSecret, {
    errorTitle: 'Failed to make a new secret',
    onSuccess: async (data) => {
      setSecret(data.webhookSecret);
      await utils.socialPosts.settings.invalidate();
    },
  });
  const newFeed = useSave(trpc.socialPosts.regenerateFeedToken, {
    success: ['New calendar address made', 'The old address no longer works.'],
    errorTitle: 'Failed to make a new address',
    onSuccess: (data) => utils.socialPosts.settings.setData(undefined, data),
  });
  const feedUrl = settings.data?.feedPath ? `${window.location.origin}${settings.data.feedPath}` : '';

  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="social">
      <Title order={2} size="h4" mb={4}>
        Social
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        How Social Blast posts go out, and the calendar feed of your posts.
      </Text>
      {settings.isLoading ? (
        <Skeleton h={160} />
      ) : (
        <Stack>
          <form onSubmit={form.onSubmit((v) => save.mutate({ webhookUrl: v.webhookUrl }))} noValidate>
            <Stack gap="xs">
              <TextInput
                label="Publishing webhook URL"
                description="At each post's time, Lampstand sends it here as signed JSON (for Zapier, Make, n8n or your own service). Leave empty to stop publishing."
                placeholder="https://hooks.zapier.com/hooks/catch/…"
                {...form.getInputProps('webhookUrl')}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Save webhook
                </Button>
              </Group>
            </Stack>
          </form>
          {secret ? (
            <Alert color="orange" icon={<IconKey size={18} />} title="Copy your signing secret now">
              <Stack gap="xs">
                <Text size="sm">
                  It will not be shown again. Your publishing service uses it to check that posts really come from
                  Lampstand.
                </Text>
                <CopyField label="Signing secret" value={secret} />
                <ForDeveloper>
                  Check the <Code>X-Lampstand-Signature</Code> header: HMAC-SHA256 of the{' '}
                  <Code>X-Lampstand-Timestamp</Code> value, a dot and the body, with this secret.
                </ForDeveloper>
              </Stack>
            </Alert>
          ) : null}
          {settings.data?.hasWebhookSecret ? (
            <Group justify="space-between" wrap="wrap">
              <Text size="sm">A signing secret is set.</Text>
              <Button
                variant="default"
                loading={newSecret.isPending}
                onClick={() =>
                  confirmDestructive({
                    title: 'Make a new signing secret?',
                    text: 'The current secret stops working at once: update your receiving service with the new one.',
                    confirm: 'Make new secret',
                    onConfirm: () => newSecret.mutate(),
                  })
                }
              >
                Regenerate secret
              </Button>
            </Group>
          ) : null}
          {feedUrl ? (
            <Stack gap="xs">
              <CopyField label="Calendar feed (iCalendar)" value={feedUrl} />
              <Text size="xs" c="dimmed">
                Subscribe to this address in Google Calendar, Outlook or Apple Calendar to see your posts there. Anyone
                with it can read your post plan.
              </Text>
              <Group justify="flex-end">
                <Button
                  variant="default"
                  loading={newFeed.isPending}
                  onClick={() =>
                    confirmDestructive({
                      title: 'Make a new calendar address?',
                      text: 'Calendars subscribed to the current address stop updating.',
                      confirm: 'Make new address',
                      onConfirm: () => newFeed.mutate(),
                    })
                  }
                >
                  Regenerate feed address
                </Button>
              </Group>
            </Stack>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}
