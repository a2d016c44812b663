import { Button, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconSend } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { testEmailSchema } from '@lampstand/api/schemas/email-campaigns';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { fieldIssue, useSave } from '../../lib/use-save';

export function Preview({ subject, content, listId }: { subject: string; content: string; listId: string }) {
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  const [testEmail, setTestEmail] = useState('');
  const [testState, setTestState] = useState<'idle' | 'sending' | 'sent' | 'error'>('idle');
  const [testError, setTestError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A read that posts the draft: the loader stays until it answers, with no toast of its own.
  const preview = useSave(trpc.emailCampaigns.preview, {
    errorTitle: 'Failed to load the preview',
    answer: () => true,
  });
  const sendTest = useSave(trpc.emailCampaigns.sendTest, {
    success: (res) => ['Test Email Sent', res.message],
    errorTitle: 'Failed to send test email',
    onSuccess: () => setTestState('sent'),
    // The server's reason ('Test emails go to your account email or to one of your contacts'),
    // under the address when it is about the address, else beside the failure.
    onError: (err) => {
      const reason = errorMessage(err);
      const onAddress = fieldIssue(err, 'testEmail') !== undefined;
      setTestState('error');
      setTestError(onAddress ? reason : null);
      setFailure(onAddress ? null : reason);
    },
  });
  useEffect(() => {
    preview.mutate({ subject, content, listId: listId ? Number(listId) : undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [subject, content, listId]);
  const test = () => {
    const address = testEmailSchema.shape.testEmail.safeParse(testEmail);
    if (!address.success) {
      setTestError(address.error.issues[0]?.message ?? null);
      return;
    }
    setTestError(null);
    setTestState('sending');
    sendTest.mutate({ testEmail: address.data, subject, content });
  };
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Text size="sm" c="dimmed">
            Subject
          </Text>
          <Text fw={600}>{preview.data?.subject ?? subject}</Text>
          {preview.data ? (
            <Text size="xs" c="dimmed">
              Merge tags filled from {preview.data.sample.firstName} {preview.data.sample.lastName}
            </Text>
          ) : null}
        </Stack>
        <SegmentedControl
          value={device}
          onChange={(v) => setDevice(v)}
          data={[
            {
              value: 'desktop',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconDeviceDesktop size={16} />
                  Desktop
                </Group>
              ),
            },
            {
              value: 'mobile',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconDeviceMobile size={16} />
                  Mobile
                </Group>
              ),
            },
          ]}
          aria-label="Preview width"
        />
      </Group>
      <Paper
        withBorder
        p={0}
        style={{
          overflow: 'hidden',
          display: 'flex',
          justifyContent: 'center',
          background: 'var(--mantine-color-gray-1)',
        }}
      >
        {preview.data ? (
          <iframe
            title="Email preview"
            sandbox=""
            srcDoc={preview.data.html}
            style={{ width: device === 'desktop' ? '100%' : 375, height: 520, border: 0, background: 'white' }}
          />
        ) : (
          <Loader m="xl" aria-label="Loading preview" />
        )}
      </Paper>
      <Paper withBorder p="md">
        <Text fw={600} size="sm" mb="xs">
          Send a test email
        </Text>
        <Group align="flex-start" wrap="nowrap">
          <TextInput
            label="Test email address"
            description="Your account email or one of your contacts (at most 20 an hour)"
            placeholder="you@example.org"
            value={testEmail}
            onChange={(e) => {
              setTestEmail(e.currentTarget.value);
              setTestState('idle');
              setTestError(null);
            }}
            error={testError}
            style={{ flex: 1 }}
          />
          <Button
            mt={45}
            leftSection={<IconSend size={16} />}
            loading={testState === 'sending'}
            onClick={test}
            variant="light"
          >
            {testState === 'sent' ? 'Sent' : 'Send Test'}
          </Button>
        </Group>
        {testState === 'error' ? (
          <Text size="sm" c="red" mt="xs">
            {failure ? `Failed to send test email: ${failure}` : 'Failed to send test email'}
          </Text>
        ) : null}
      </Paper>
    </Stack>
  );
}
