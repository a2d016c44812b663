import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Menu,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDots, IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { useSave } from '../../../lib/use-save';
import { confirmDestructive } from '../../../ui/confirm';
import { DataTable } from '../../../ui/data-table';
import { CopyField } from '../../social-blast/social-settings';
import { ForDeveloper } from '../../../ui/for-developer';
import { statusColor } from '../../../ui/status-color';
import { DeliveryLog } from './delivery-log';
import { WebhookDialog, type Webhook } from './webhook-dialog';

const OFF_REASON = {
  staff: 'Turned off',
  gone: 'Off: your system asked to stop',
  failing: 'Off: failing for 3 days',
} as const;

/**
 * Settings → Integrations: outgoing webhooks. Each endpoint gets the events it asked for, signed
 * as Standard Webhooks says; its secret is shown once (on adding and on rotating), its delivery
 * log has Redeliver and Send test event.
 */
export function IntegrationsSection() {
  const utils = trpc.useUtils();
  const hooks = trpc.webhooks.list.useQuery();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const invalidate = () => utils.webhooks.list.invalidate();
  const rotate = useSave(trpc.webhooks.rotateSecret, {
    success: ['Secret rotated', 'The previous secret keeps working for 24 hours.'],
    errorTitle: 'Failed to rotate secret',
    invalidate,
    onSuccess: (r) => setSecret(r.secret),
  });
  const toggle = useSave(trpc.webhooks.update, {
    success: (w) => (w.enabled ? 'Endpoint turned on' : 'Endpoint turned off'),
    errorTitle: 'Failed to save endpoint',
    invalidate,
  });
  const remove = useSave(trpc.webhooks.delete, {
    success: 'Endpoint deleted',
    errorTitle: 'Failed to delete endpoint',
    invalidate,
  });
  const list = hooks.data ?? [];

  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="integrations">
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap">
        <div style={{ flex: 1, minWidth: 240 }}>
          <Title order={2} size="h4" mb={4}>
            Integrations
          </Title>
          <Text size="sm" c="dimmed">
            Tell your other systems (a website, a CRM, a spreadsheet service) what happens in Lampstand as it happens:
            sign-ups, gifts, replies and more.
          </Text>
          <ForDeveloper>
            Webhooks: a signed POST (Standard Webhooks) to your endpoint for each event. Scripts that cannot receive
            them can read <Code>GET /api/events</Code> instead. An endpoint that answers 410 Gone is turned off.
          </ForDeveloper>
        </div>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
          Add endpoint
        </Button>
      </Group>
      <Stack>
        {secret ? (
          <Alert
            color="orange"
            icon={<IconKey size={18} />}
            title="Copy your signing secret now"
            withCloseButton
            onClose={() => setSecret(null)}
            closeButtonLabel="Hide secret"
          >
            <Stack gap="xs">
              <Text size="sm">
                It will not be shown again. Your endpoint checks each webhook&apos;s signature with it.
              </Text>
              <CopyField label="Signing secret" value={secret} />
            </Stack>
          </Alert>
        ) : null}
        {hooks.isLoading ? (
          <Skeleton h={80} />
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            No webhook endpoints yet.
          </Text>
        ) : (
          <DataTable
            label="Webhook endpoints"
            rows={list}
            rowKey={(w) => w.id}
            minWidth={560}
            columns={[
              {
                header: 'Endpoint',
                card: 'title',
                // A long address breaks where it must; the description wraps between words.
                cell: (w) => (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {w.url}
                  </Text>
                ),
                note: (w) => w.description,
              },
              {
                header: 'Events',
                cell: (w) =>
                  w.eventTypes
                    ? `${w.eventTypes.length} event type${w.eventTypes.length === 1 ? '' : 's'}`
                    : 'All events',
              },
              {
                header: 'Status',
                cell: (w) =>
                  w.enabled ? (
                    <Badge color={statusColor('success')} variant="light">
                      Active
                    </Badge>
                  ) : (
                    <Badge
                      color={statusColor(w.disabledReason && w.disabledReason !== 'staff' ? 'failure' : 'neutral')}
                      variant="light"
                    >
                      {OFF_REASON[w.disabledReason ?? 'staff']}
                    </Badge>
                  ),
              },
            ]}
            actions={(w) => (
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setLogOf(w)} aria-label={`Delivery log of ${w.url}`}>
                  Delivery log
                </Button>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" aria-label={`More actions for ${w.url}`}>
                      <IconDots size={18} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => setEditing(w)}>Edit</Menu.Item>
                    <Menu.Item onClick={() => toggle.mutate({ id: w.id, enabled: !w.enabled })}>
                      {w.enabled ? 'Turn off' : 'Turn on'}
                    </Menu.Item>
                    <Menu.Item
                      onClick={() =>
                        modals.openConfirmModal({
                          title: 'Rotate the signing secret?',
                          children: (
                            <Text size="sm">
                              A new secret is shown once. Webhooks are signed with both for 24 hours, so you have a day
                              to give your endpoint the new one.
                            </Text>
                          ),
                          labels: { confirm: 'Rotate secret', cancel: 'Cancel' },
                          onConfirm: () => rotate.mutate({ id: w.id }),
                        })
                      }
                    >
                      Rotate secret
                    </Menu.Item>
                    <Menu.Item
                      color="red"
                      onClick={() =>
                        confirmDestructive({
                          title: 'Delete this endpoint?',
                          text: `${w.url} stops receiving webhooks, and its delivery log is deleted.`,
                          confirm: 'Delete endpoint',
                          onConfirm: () => remove.mutate({ id: w.id }),
                        })
                      }
                    >
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
            )}
          />
        )}
      </Stack>
      {editing ? (
        <WebhookDialog
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onCreated={setSecret}
        />
      ) : null}
      {logOf ? (
        <DeliveryLog webhook={list.find((w) => w.id === logOf.id) ?? logOf} onClose={() => setLogOf(null)} />
      ) : null}
    </Paper>
  );
}
