import { Anchor, Button, Card, Checkbox, Group, Modal, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { IconChecklist } from '@tabler/icons-react';
import { useState } from 'react';
import { groupDateSchema } from '@lampstand/api/schemas/groups';
import type { RouterOutputs } from '@lampstand/api';
import { todayIn, useChurchTimeZone } from '../../lib/time-zone';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { DataTable, type Column } from '../../ui/data-table';
import { formatDate, formatNumber } from '../../ui/format';
import type { GroupDetail } from './group-form';

type Meeting = RouterOutputs['groups']['meetings'][number];

const refresh = (u: SaveUtils) =>
  Promise.all([
    u.groups.meetings.invalidate(),
    u.groups.get.invalidate(),
    u.groups.members.invalidate(),
    u.groups.list.invalidate(),
  ]);

/** Take (or change) a meeting's attendance: everyone ticked at first, visitors by name. */
function AttendanceModal({
  group,
  meetings,
  initialDate,
  onClose,
}: {
  group: GroupDetail;
  meetings: Meeting[];
  initialDate: string;
  onClose: () => void;
}) {
  const members = trpc.groups.members.useQuery({ id: group.id });
  const [date, setDate] = useState(initialDate);
  const [dateError, setDateError] = useState<string | undefined>();
  const existing = meetings.find((m) => m.date === date && m.recorded);
  const [present, setPresent] = useState<number[] | null>(existing ? existing.present.map((p) => p.contactId) : null);
  const [visitors, setVisitors] = useState<string[]>(existing?.visitors ?? []);
  const [saving, setSaving] = useState(false);
  const utils = trpc.useUtils();
  const failed = { errorTitle: 'Failed to save attendance' };
  const createMeeting = useSave(trpc.groups.createMeeting, failed);
  const record = useSave(trpc.groups.recordAttendance, {
    ...failed,
    success: (_out, input) => [
      'Attendance saved',
      `${formatNumber(input.present?.length ?? 0)} present on ${formatDate(date)}.`,
    ],
  });
  const roster = members.data ?? [];
  const ticked = present ?? roster.map((m) => m.contactId);
  const pickDate = (d: string) => {
    setDate(d);
    setDateError(undefined);
    const m = meetings.find((x) => x.date === d && x.recorded);
    setPresent(m ? m.present.map((p) => p.contactId) : null);
    setVisitors(m?.visitors ?? []);
  };
  const save = async () => {
    const parsed = groupDateSchema('Date').safeParse(date);
    if (!parsed.success) return setDateError(parsed.error.issues[0]?.message);
    setSaving(true);
    try {
      const meeting = await createMeeting.mutateAsync({ id: group.id, date: parsed.data });
      await record.mutateAsync({ id: group.id, meetingId: meeting.id, present: ticked, visitors });
      await refresh(utils);
      onClose();
    } catch {
      // useSave has shown why.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Attendance: ${group.name}`}>
      <Stack>
        <TextInput
          label="Meeting date"
          type="date"
          value={date}
          error={dateError}
          onChange={(e) => pickDate(e.currentTarget.value)}
        />
        <Checkbox.Group
          label="Who came"
          description={
            existing ? 'Attendance was taken: saving replaces it.' : 'Everyone is ticked: untick who was away.'
          }
          value={ticked.map(String)}
          onChange={(v) => setPresent(v.map(Number))}
        >
          <Stack gap={6} mt="xs">
            {roster.map((m) => (
              <Checkbox key={m.contactId} value={String(m.contactId)} label={m.name} />
            ))}
            {roster.length === 0 ? <Text size="sm">Nobody is in this group yet.</Text> : null}
          </Stack>
        </Checkbox.Group>
        <TagsInput label="Visitors" description="Type a name and press Enter" value={visitors} onChange={setVisitors} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={saving} onClick={() => void save()}>
            Save attendance
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The group's meetings, newest first, with who came; 'Take attendance'. */
export function GroupMeetings({ group }: { group: GroupDetail }) {
  const meetings = trpc.groups.meetings.useQuery({ id: group.id });
  // A meeting's day is the church's (as the server's and the portal's 'today'), not the browser's.
  const timeZone = useChurchTimeZone();
  const [taking, setTaking] = useState<string | null>(null);
  const all = meetings.data ?? [];
  const rows = [...all].reverse().slice(0, 12);
  const columns: Column<Meeting>[] = [
    {
      header: 'Date',
      card: 'title',
      cell: (m) => (
        <Anchor
          component="button"
          fw={600}
          onClick={() => setTaking(m.date)}
          aria-label={`Attendance of ${formatDate(m.date)}`}
        >
          {formatDate(m.date)}
        </Anchor>
      ),
    },
    {
      header: 'Present',
      cell: (m) => (m.recorded ? formatNumber(m.present.length) : 'Not taken'),
      note: (m) => (m.recorded ? m.present.map((p) => p.name).join(', ') : null),
    },
    { header: 'Visitors', cell: (m) => (m.visitors.length ? m.visitors.join(', ') : '—') },
  ];
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          Meetings
        </Title>
        <Button
          variant="default"
          leftSection={<IconChecklist size={18} />}
          onClick={() => setTaking(todayIn(timeZone))}
        >
          Take attendance
        </Button>
      </Group>
      <DataTable
        label="Meetings"
        rows={rows}
        rowKey={(m) => m.id}
        columns={columns}
        empty={
          <Text c="dimmed" size="sm">
            {meetings.isLoading
              ? 'Loading…'
              : 'No meetings yet. Leaders take attendance from the members’ portal on their phone.'}
          </Text>
        }
      />
      {taking ? (
        <AttendanceModal group={group} meetings={all} initialDate={taking} onClose={() => setTaking(null)} />
      ) : null}
    </Card>
  );
}
