import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { formatDate, formatNumber, formatPercent, formatTime } from '../../ui/format';
import { timeZoneLabel, useChurchTimeZone } from '../../lib/time-zone';
import { TimeZoneLink } from '../../ui/time-zone-link';
import { StatusBadge } from './status';
import { OutboxPanel } from '../campaigns/outbox-panel';

function rate(n: number, of: number): string {
  return formatPercent(of > 0 ? (100 * n) / of : 0);
}

function Outbox({ campaignId }: { campaignId: number }) {
  const outbox = trpc.outbox.list.useQuery({ channel: 'email', campaignId, limit: 50 });
  const [open, setOpen] = useState<{ subject: string | null; html: string | null } | null>(null);
  if (!outbox.data || outbox.data.length === 0) return null;
  return (
    <>
      <OutboxPanel
        description={
          <>
            Email sending is not set up on this Lampstand server yet, so messages were kept here instead of being sent.
            Showing the latest {outbox.data.length}.
          </>
        }
        messages={outbox.data}
        messageHeader="Subject"
        message={(m) => (
          <Anchor component="button" onClick={() => setOpen(m)}>
            {m.subject}
          </Anchor>
        )}
      />
      <Modal opened={!!open} onClose={() => setOpen(null)} title={open?.subject ?? 'Message'} size="xl">
        {open?.html ? (
          <iframe title="Message" sandbox="" srcDoc={open.html} style={{ width: '100%', height: 560, border: 0 }} />
        ) : null}
      </Modal>
    </>
  );
}

export function EmailCampaignViewPage() {
  const { id } = useParams();
  const campaignId = Number(id);
  const campaign = trpc.emailCampaigns.get.useQuery(
    { id: campaignId },
    {
      enabled: campaignId > 0,
      refetchInterval: (q) =>
        q.state.data?.status === 'sending' || q.state.data?.status === 'scheduled' ? 1500 : false,
    },
  );
  const timeZone = useChurchTimeZone();
  const sent = campaign.data?.status === 'sent';
  const stats = trpc.emailCampaigns.stats.useQuery(
    { id: campaignId },
    { enabled: sent, refetchInterval: sent ? 10_000 : false },
  );

  if (campaign.isLoading) return <Loader aria-label="Loading campaign" />;
  if (!campaign.data) {
    return (
      <Alert color="red" title="Campaign not found">
        Campaign not found or you don't have permission to view it.
      </Alert>
    );
  }
  const c = campaign.data;
  const s = stats.data;
  const cards = s
    ? [
        { label: 'Sent', value: formatNumber(s.sent), rate: null },
        { label: 'Opened', value: formatNumber(s.opened), rate: rate(s.opened, s.sent) },
        { label: 'Clicked', value: formatNumber(s.clicked), rate: rate(s.clicked, s.sent) },
        { label: 'Bounced', value: formatNumber(s.bounced), rate: rate(s.bounced, s.sent) },
        { label: 'Unsubscribed', value: formatNumber(s.unsubscribed), rate: rate(s.unsubscribed, s.sent) },
      ]
    : [];
  return (
    <Stack>
      <Anchor
        component={Link}
        to="/email-campaigns"
        size="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={14} /> Back to Email Campaigns
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1} size="h2">
              {c.name}
            </Title>
            <StatusBadge status={c.status} />
          </Group>
          <Text c="dimmed">{c.subject}</Text>
          <Text size="sm" c="dimmed">
            {c.status === 'scheduled' && c.scheduledFor ? (
              <>
                {`Scheduled for ${formatDate(c.scheduledFor, timeZone)} at ${formatTime(c.scheduledFor, timeZone)} ${timeZoneLabel(timeZone)}`}
                <TimeZoneLink />
              </>
            ) : null}
            {c.sentAt ? `Sent ${formatDate(c.sentAt, timeZone)} at ${formatTime(c.sentAt, timeZone)}` : null}
          </Text>
        </Stack>
        {c.status === 'draft' || c.status === 'scheduled' ? (
          <Button
            component={Link}
            to={`/email-campaigns/${c.id}/edit`}
            leftSection={<IconPencil size={16} />}
            variant="light"
          >
            Edit Campaign
          </Button>
        ) : (
          // A real disabled button (not a link that still follows Enter), announced as unavailable.
          <Button leftSection={<IconPencil size={16} />} variant="light" disabled>
            Edit Campaign
          </Button>
        )}
      </Group>

      {c.status === 'sending' ? (
        <Paper withBorder p="md">
          <Text fw={600} mb="xs">
            Sending: {formatNumber(c.progress.sent)} of {formatNumber(c.progress.total)}
          </Text>
          <Progress
            value={c.progress.total ? (100 * (c.progress.sent + c.progress.failed)) / c.progress.total : 0}
            animated
            size="lg"
            aria-label="Sending progress"
          />
        </Paper>
      ) : null}

      {sent ? (
        s ? (
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
            {cards.map((card) => (
              <Card key={card.label} withBorder>
                <Text size="sm" c="dimmed">
                  {card.label}
                </Text>
                <Text fw={700} size="xl">
                  {card.value}
                </Text>
                {card.rate ? (
                  <Text size="sm" c="dimmed">
                    {card.rate}
                  </Text>
                ) : null}
              </Card>
            ))}
          </SimpleGrid>
        ) : (
          <Loader size="sm" aria-label="Loading statistics" />
        )
      ) : c.status !== 'sending' ? (
        <Alert color="gray" title="Campaign not sent yet">
          {c.status === 'failed'
            ? (c.error ?? 'Sending failed.')
            : 'Statistics appear here once the campaign has been sent.'}
        </Alert>
      ) : null}

      <Outbox campaignId={c.id} />
    </Stack>
  );
}
