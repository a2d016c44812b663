import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { GroupFormDrawer, type GroupDetail } from './group-form';
import { GroupMeetings } from './group-meetings';
import { GroupMembers } from './group-members';
import { JoinRequests } from './join-requests';
import { MessageGroupButton } from './group-message';
import { JOIN_MODE_SHORT, nextMeetingWords, rateWords, scheduleWords, TREND_COLORS, TREND_LABELS } from './group-words';

function Figure({ label, value, extra }: { label: string; value: string; extra?: React.ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Group gap={8} align="baseline">
        <Text fw={700} size="xl">
          {value}
        </Text>
        {extra}
      </Group>
    </Card>
  );
}

function Summary({ group }: { group: GroupDetail }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }}>
      <Figure
        label="Members"
        value={
          group.capacity
            ? `${formatNumber(group.memberCount)} of ${formatNumber(group.capacity)}`
            : formatNumber(group.memberCount)
        }
      />
      <Figure
        label="Attendance rate"
        value={rateWords(group.attendanceRate)}
        extra={
          group.trend ? (
            <Badge variant="light" color={TREND_COLORS[group.trend]}>
              {TREND_LABELS[group.trend]}
            </Badge>
          ) : null
        }
      />
      <Figure label="Next meeting" value={nextMeetingWords(group.nextMeeting)} />
      <Figure label="Asking to join" value={formatNumber(group.pendingRequests)} />
    </SimpleGrid>
  );
}

function MissedLastThree({ group }: { group: GroupDetail }) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="xs">
        Missed the last three meetings
      </Title>
      {group.recentMeetings.filter((m) => m.recorded).length < 3 ? (
        <Text size="sm" c="dimmed">
          Shown once three meetings have attendance.
        </Text>
      ) : group.missedLastThree.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody: everyone came at least once in the last three meetings with attendance.
        </Text>
      ) : (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            A call from the leader helps: someone who drifts from a group often drifts from church.
          </Text>
          {group.missedLastThree.map((p) => (
            <Anchor key={p.contactId} component={Link} to={`/contacts/detail/${p.contactId}`}>
              {p.name}
            </Anchor>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/** A group's page: its figures, join requests, members, meetings with attendance, who drifted. */
export function GroupPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const group = trpc.groups.get.useQuery({ id }, { enabled: Number.isInteger(id) && id > 0 });
  const [editing, setEditing] = useState(false);
  const remove = useSave(trpc.groups.delete, {
    success: 'Group deleted',
    errorTitle: 'Failed to delete group',
    invalidate: (u) => u.groups.list.invalidate(),
    onSuccess: () => navigate('/groups'),
  });
  const back = (
    <Anchor component={Link} to="/groups" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={16} /> All groups
      </Group>
    </Anchor>
  );
  if (group.isLoading)
    return (
      <Stack>
        <Skeleton h={40} w={300} />
        <Skeleton h={90} />
        <Skeleton h={240} />
      </Stack>
    );
  if (!group.data)
    return (
      <Stack>
        {back}
        <Alert color="red" title={group.error?.data?.httpStatus === 404 ? 'Group not found' : 'Error'}>
          {group.error?.data?.httpStatus === 404
            ? 'This group does not exist or was deleted.'
            : 'There was an error loading this group.'}{' '}
          <Anchor component="button" onClick={() => void group.refetch()}>
            Retry
          </Anchor>
        </Alert>
      </Stack>
    );
  const g = group.data;
  return (
    <>
      {back}
      <PageHeader
        title={
          <Group gap="sm" component="span">
            {g.name}
            {g.archived ? <Badge color="gray">Archived</Badge> : null}
          </Group>
        }
        description={[g.type, scheduleWords(g), g.area, JOIN_MODE_SHORT[g.joinMode]].filter(Boolean).join(' · ')}
        action={
          <Group gap="sm">
            {g.archived ? null : <MessageGroupButton group={g} />}
            <Button variant="default" leftSection={<IconPencil size={18} />} onClick={() => setEditing(true)}>
              Edit group
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={18} />}
              onClick={() =>
                confirmDestructive({
                  title: 'Delete group?',
                  text: `Delete ${g.name} with its ${formatNumber(g.recentMeetings.length)} recent meetings and their attendance? Its ${formatNumber(g.memberCount)} members stay as contacts. To keep its history, archive it instead.`,
                  confirm: 'Delete',
                  onConfirm: () => remove.mutate({ id: g.id }),
                })
              }
            >
              Delete
            </Button>
          </Group>
        }
      />
      <Stack gap="lg">
        <Summary group={g} />
        <JoinRequests groupId={g.id} pending={g.pendingRequests} />
        <GroupMembers group={g} />
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <GroupMeetings group={g} />
          <MissedLastThree group={g} />
        </SimpleGrid>
      </Stack>
      {editing ? <GroupFormDrawer group={g} onClose={() => setEditing(false)} /> : null}
    </>
  );
}
