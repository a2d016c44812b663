import { Badge, Button, Card, Group, Menu, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconChevronDown,
  IconDoorEnter,
  IconDownload,
  IconMessage,
  IconPencil,
  IconSend,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useChurchTimeZone } from '../../lib/time-zone';
import { showFailure, useSave } from '../../lib/use-save';
import { confirmAction, confirmDestructive } from '../../ui/confirm';
import { formatDateTime, formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { BackLink, EventNotFound } from './loading';
import { MessageDialog } from './message-dialog';
import { Registrants } from './registrants';
import { STATUS_COLORS, STATUS_LABELS, type EventDetail } from './event-words';

/** Downloads a text file the server made (the registrant list's CSV). */
export function download(fileName: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}

function Times({ event, zone }: { event: EventDetail; zone: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
      {event.times.map((t) => (
        <Card key={t.id} withBorder padding="md">
          <Text size="sm" c="dimmed">
            {formatDateTime(t.startsAt, zone)}
          </Text>
          <Text fw={700} size="xl">
            {t.capacity === null
              ? `${formatNumber(t.seatsTaken)} taken`
              : `${formatNumber(t.seatsTaken)} of ${formatNumber(t.capacity)} seats`}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** One event: its times and seats, what staff do with it, and its registrant list. */
export function EventPage() {
  const id = Number(useParams().id);
  const zone = useChurchTimeZone();
  const event = trpc.calendar.get.useQuery({ id }, { enabled: Number.isInteger(id) && id > 0 });
  const utils = trpc.useUtils();
  const [messaging, setMessaging] = useState(false);
  const update = useSave(trpc.calendar.update, {
    success: (e) =>
      e.status === 'cancelled'
        ? ['Event cancelled', 'Everyone registered is told, and what they paid is refunded.']
        : ['Event published', `${e.title} is open for registration.`],
    errorTitle: 'Failed to change the event',
    invalidate: (u) => [
      u.calendar.get.invalidate(),
      u.calendar.list.invalidate(),
      u.calendar.registrations.invalidate(),
    ],
  });
  const back = <BackLink to="/events">All events</BackLink>;
  if (event.isLoading)
    return (
      <Stack>
        <Skeleton h={40} w={300} />
        <Skeleton h={90} />
        <Skeleton h={240} />
      </Stack>
    );
  if (!event.data) return <EventNotFound back={back} />;
  const e = event.data;
  const open = e.counts.confirmed + e.counts.held + e.counts.offered + e.counts.pending_approval + e.counts.waitlisted;
  const publish = () =>
    confirmAction({
      title: `Publish ${e.title}?`,
      text: 'People can find it and register. You can still change it afterwards.',
      confirm: 'Publish',
      onConfirm: () => update.mutate({ id: e.id, status: 'published' }),
    });
  const cancel = () =>
    confirmDestructive({
      title: `Cancel ${e.title}?`,
      text: `${formatNumber(open)} ${open === 1 ? 'registration is' : 'registrations are'} cancelled, each person is told, and everything they paid is refunded in full to their card. This cannot be undone.`,
      confirm: 'Cancel event and refund',
      onConfirm: () => update.mutate({ id: e.id, status: 'cancelled' }),
    });
  const exportCsv = async () => {
    try {
      const file = await utils.calendar.exportRegistrations.fetch({ id: e.id });
      download(file.fileName, file.csv, 'text/csv');
    } catch (err) {
      showFailure({ errorTitle: 'Failed to export registrations' }, err);
    }
  };

  return (
    <Stack gap="lg">
      {back}
      <PageHeader
        title={e.title}
        description={
          <Group gap="xs" component="span">
            <Badge variant="light" color={STATUS_COLORS[e.status]} component="span">
              {STATUS_LABELS[e.status]}
            </Badge>
            <span>{[e.locationName, e.address].filter(Boolean).join(', ') || 'No place set'}</span>
          </Group>
        }
        action={
          <Group gap="sm">
            {e.status === 'draft' ? (
              <Button leftSection={<IconSend size={18} />} onClick={publish} loading={update.isPending}>
                Publish
              </Button>
            ) : null}
            <Button
              component={Link}
              to={`/events/${e.id}/door`}
              variant="default"
              leftSection={<IconDoorEnter size={18} />}
            >
              Door view
            </Button>
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                  More
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to={`/events/${e.id}/edit`} leftSection={<IconPencil size={16} />}>
                  Edit event
                </Menu.Item>
                <Menu.Item leftSection={<IconMessage size={16} />} onClick={() => setMessaging(true)}>
                  Message registrants
                </Menu.Item>
                <Menu.Item leftSection={<IconDownload size={16} />} onClick={() => void exportCsv()}>
                  Export CSV
                </Menu.Item>
                {e.status !== 'cancelled' ? (
                  <Menu.Item color="red" leftSection={<IconX size={16} />} onClick={cancel}>
                    Cancel event
                  </Menu.Item>
                ) : null}
              </Menu.Dropdown>
            </Menu>
          </Group>
        }
      />
      <Times event={e} zone={zone} />
      <Stack gap="sm">
        <Title order={2} size="h3">
          Registrants
        </Title>
        <Registrants event={e} zone={zone} />
      </Stack>
      {messaging ? <MessageDialog event={e} onClose={() => setMessaging(false)} /> : null}
    </Stack>
  );
}
