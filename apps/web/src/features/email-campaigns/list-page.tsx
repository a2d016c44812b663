import { ActionIcon, Alert, Anchor, Button, Group, Paper, Skeleton, Tabs, Text } from '@mantine/core';
import { IconEye, IconMail, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { errorMessage } from '../../lib/errors';
import { formatNumber } from '../../ui/format';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { StatusBadge } from './status';
import { useChurchTimeZone } from '../../lib/time-zone';
import { useSendConfirmation } from '../campaigns/send-confirmation';
import { SendingLimitNotice } from '../campaigns/sending-limit';
import { campaignRowSaves, campaignWhen, SendCampaignButton } from '../campaigns/campaign-table';
import { DataTable, RowActionsMenu } from '../../ui/data-table';

type Tab = 'all' | 'draft' | 'scheduled' | 'sent';

export function EmailCampaignsPage() {
  const [params, setParams] = useSearchParams();
  const listId = params.get('listId');
  const tab = (
    ['all', 'draft', 'scheduled', 'sent'].includes(params.get('tab') ?? '') ? params.get('tab') : 'all'
  ) as Tab;
  const campaigns = trpc.emailCampaigns.list.useQuery(
    { status: tab },
    { refetchInterval: (q) => (q.state.data?.some((c) => c.status === 'sending') ? 2000 : false) },
  );
  const lists = trpc.contactLists.list.useQuery({ include_counts: false }, { enabled: !!listId });
  const list = lists.data?.find((l) => String(l.id) === listId);
  const newHref = listId ? `/email-campaigns/new?listId=${listId}` : '/email-campaigns/new';

  const timeZone = useChurchTimeZone();
  const { confirmSend } = useSendConfirmation('email');
  const saves = campaignRowSaves(
    (utils) => utils.emailCampaigns.list.invalidate(),
    'Messages are on their way; the numbers update as they go out.',
  );
  const send = useSave(trpc.emailCampaigns.send, saves.send);
  const del = useSave(trpc.emailCampaigns.delete, saves.delete);

  const setTab = (v: string | null) => {
    const next = new URLSearchParams(params);
    if (!v || v === 'all') next.delete('tab');
    else next.set('tab', v);
    setParams(next, { replace: true });
  };

  const body = campaigns.isLoading ? (
    <Skeleton h={200} />
  ) : campaigns.error ? (
    <Alert color="red" title="Failed to load campaigns">
      {errorMessage(campaigns.error)}
    </Alert>
  ) : (campaigns.data ?? []).length === 0 ? (
    <EmptyState
      icon={<IconMail size={24} />}
      title={tab === 'all' ? 'No email campaigns yet' : `No ${tab} campaigns`}
      description="Write a campaign, choose a list, and send it now or later."
      action={
        <Button component={Link} to={newHref} variant="light" leftSection={<IconPlus size={16} />}>
          New Campaign
        </Button>
      }
    />
  ) : (
    <DataTable
      label="Email campaigns"
      rows={campaigns.data!}
      rowKey={(c) => c.id}
      minWidth={720}
      actionsWidth={150}
      columns={[
        {
          header: 'Name',
          card: 'title',
          td: { fw: 500 },
          cell: (c) => (
            <Anchor component={Link} to={`/email-campaigns/${c.id}`} inherit>
              {c.name}
            </Anchor>
          ),
          note: (c) => c.subject || 'No subject yet',
        },
        { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
        {
          header: 'Recipients',
          cell: (c) =>
            c.status === 'sending'
              ? `${formatNumber(c.progress.sent)} of ${formatNumber(c.progress.total)}`
              : c.recipientCount
                ? formatNumber(c.recipientCount)
                : '—',
        },
        {
          header: 'When',
          cell: (c) => campaignWhen(c.status === 'scheduled' ? c.scheduledFor : (c.sentAt ?? c.startedAt), timeZone),
        },
      ]}
      actions={(c) => (
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" component={Link} to={`/email-campaigns/${c.id}`} aria-label={`View ${c.name}`}>
            <IconEye size={18} />
          </ActionIcon>
          {c.status === 'draft' || c.status === 'scheduled' ? (
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/email-campaigns/${c.id}/edit`}
              aria-label={`Edit ${c.name}`}
            >
              <IconPencil size={18} />
            </ActionIcon>
          ) : null}
          {c.status === 'draft' ? (
            <SendCampaignButton
              name={c.name}
              loading={send.isPending && send.variables?.id === c.id}
              onClick={() =>
                void confirmSend({
                  name: c.name,
                  listIds: c.listIds,
                  onConfirm: () => send.mutate({ id: c.id }),
                })
              }
            />
          ) : null}
          <RowActionsMenu
            label={`More actions for ${c.name}`}
            items={[
              {
                label: 'Delete',
                icon: <IconTrash size={16} />,
                color: 'red',
                disabled: c.status === 'sending',
                onClick: () =>
                  confirmDestructive({
                    title: `Delete ${c.name}?`,
                    text: <>This permanently deletes the campaign and its statistics. This action cannot be undone.</>,
                    confirm: 'Delete',
                    onConfirm: () => del.mutate({ id: c.id }),
                  }),
              },
            ]}
          />
        </Group>
      )}
    />
  );

  return (
    <>
      <PageHeader
        title="Email Campaigns"
        description="Create, schedule and send email to your contact lists."
        action={
          <Button component={Link} to={newHref} leftSection={<IconPlus size={18} />}>
            New Campaign
          </Button>
        }
      />
      <SendingLimitNotice />
      {listId && list ? (
        <Alert color="indigo" mb="md" title={`Email ${list.name}`}>
          <Group justify="space-between">
            <Text size="sm">Start a campaign to this list.</Text>
            <Button size="xs" component={Link} to={newHref}>
              New Campaign for {list.name}
            </Button>
          </Group>
        </Alert>
      ) : null}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List mb="md">
          <Tabs.Tab value="all">All Campaigns</Tabs.Tab>
          <Tabs.Tab value="draft">Drafts</Tabs.Tab>
          <Tabs.Tab value="scheduled">Scheduled</Tabs.Tab>
          <Tabs.Tab value="sent">Sent</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Paper withBorder p="md">
        {body}
      </Paper>
    </>
  );
}
