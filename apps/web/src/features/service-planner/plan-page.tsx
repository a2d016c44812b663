import { Alert, Anchor, Badge, Button, Card, Group, Loader, Menu, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconChevronDown,
  IconCopy,
  IconPencil,
  IconPlus,
  IconPrinter,
  IconSpeakerphone,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { PlanItem } from '@lampstand/api/schemas/service-planner';
import { computeItemTimes } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { errorMessage, httpStatus } from '../../lib/errors';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { AnnounceModal, DRAFT_LABELS } from './announce-modal';
import { PlanStatusBadge, dayLabel, minutesLabel, timeLabel } from './bits';
import { DuplicatePlanModal } from './duplicate-modal';
import { ItemModal } from './item-modal';
import { ItemsList } from './items-list';
import { PlanFormModal } from './plan-form';
import { TeamSection } from './team-section';

/** How often the plan refetches, so answers to scheduling requests show up on their own. */
const LIVE_MS = 10_000;

export function PlanPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const plan = trpc.servicePlanner.plans.get.useQuery({ id }, { enabled: id > 0, refetchInterval: LIVE_MS });
  const reorder = trpc.servicePlanner.items.reorder.useMutation();
  const delItem = trpc.servicePlanner.items.delete.useMutation();
  const delPlan = trpc.servicePlanner.plans.delete.useMutation();
  const [order, setOrder] = useState<PlanItem[] | null>(null);
  const [editing, setEditing] = useState(false);
  const [itemModal, setItemModal] = useState<PlanItem | 'new' | null>(null);
  const [announcing, setAnnouncing] = useState(false);
  const [duplicating, setDuplicating] = useState(false);

  if (plan.isLoading) {
    return (
      <Stack>
        <Skeleton height={40} width="50%" />
        <Skeleton height={200} />
      </Stack>
    );
  }
  if (plan.isError || !plan.data) {
    return (
      <Stack>
        <PageHeader title="Service Plan" />
        <Alert color="red" title={httpStatus(plan.error) === 404 ? 'Plan not found' : 'Error'}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {httpStatus(plan.error) === 404
                ? "This plan doesn't exist or you don't have permission to view it."
                : 'Failed to load service plans. Please try again.'}
            </Text>
            <Group gap="xs">
              {httpStatus(plan.error) !== 404 ? (
                <Button size="xs" variant="light" color="red" onClick={() => void plan.refetch()}>
                  Retry
                </Button>
              ) : null}
              <Button size="xs" variant="default" component={Link} to="/service-planner">
                Back to Service Plans
              </Button>
            </Group>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  const p = plan.data;
  const items = order ?? p.items;
  const times = computeItemTimes(p, items);

  const onReorder = (next: PlanItem[]) => {
    setOrder(next);
    void reorder
      .mutateAsync({ planId: p.id, itemIds: next.map((i) => i.id) })
      .then(async () => {
        await utils.servicePlanner.plans.get.invalidate({ id: p.id });
      })
      .catch((err: unknown) => notifyError('Failed to reorder items', errorMessage(err)))
      .finally(() => setOrder(null));
  };
  const deleteItem = (item: PlanItem) =>
    confirmDestructive({
      title: 'Delete item',
      text: `Delete "${item.title}" from ${p.title}?`,
      confirm: 'Delete',
      onConfirm: () =>
        void delItem
          .mutateAsync({ id: item.id })
          .then(async () => {
            await utils.servicePlanner.plans.invalidate();
            notifySuccess('Item deleted');
          })
          .catch((err: unknown) => notifyError('Failed to delete item', errorMessage(err))),
    });
  const deletePlan = () =>
    confirmDestructive({
      title: 'Delete plan',
      text: `Delete "${p.title}" on ${dayLabel(p.date)}? Its ${p.items.length} items and ${p.team.total} team assignments are deleted too.`,
      confirm: 'Delete',
      onConfirm: () =>
        void delPlan
          .mutateAsync({ id: p.id })
          .then(async () => {
            await utils.servicePlanner.plans.invalidate();
            notifySuccess('Plan deleted');
            await navigate('/service-planner');
          })
          .catch((err: unknown) => notifyError('Failed to delete plan', errorMessage(err))),
    });

  const when = [
    dayLabel(p.date),
    p.startTime ? `${timeLabel(p.startTime)}${p.endTime ? ` – ${timeLabel(p.endTime)}` : ''}` : null,
    p.location,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <Stack>
      <Anchor component={Link} to="/service-planner" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Service Plans
        </Group>
      </Anchor>
      <PageHeader
        title={p.title}
        description={when}
        action={
          <Group gap="xs" wrap="wrap">
            <Button variant="default" leftSection={<IconPencil size={18} />} onClick={() => setEditing(true)}>
              Edit Plan
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button
                  variant="default"
                  leftSection={<IconPrinter size={18} />}
                  rightSection={<IconChevronDown size={16} />}
                >
                  Print
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to={`/service-planner/plans/${p.id}/print`}>
                  Run sheet
                </Menu.Item>
                <Menu.Item component={Link} to={`/service-planner/plans/${p.id}/print?view=chords`}>
                  Lyrics and chords
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            <Button leftSection={<IconSpeakerphone size={18} />} onClick={() => setAnnouncing(true)}>
              Announce
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                  More
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => setDuplicating(true)}>
                  Duplicate
                </Menu.Item>
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={deletePlan}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        }
      />
      <Group gap="xs">
        <PlanStatusBadge status={p.status} />
        {p.theme ? <Badge variant="outline">Theme: {p.theme}</Badge> : null}
        {reorder.isPending ? <Loader size="xs" aria-label="Saving the order" /> : null}
      </Group>
      {p.description || p.notes ? (
        <Card withBorder>
          {p.description ? <Text size="sm">{p.description}</Text> : null}
          {p.notes ? (
            <Text size="sm" c="dimmed" mt={p.description ? 'xs' : 0}>
              Notes: {p.notes}
            </Text>
          ) : null}
        </Card>
      ) : null}

      <Card withBorder>
        <Group justify="space-between" mb="sm" wrap="wrap">
          <Stack gap={0}>
            <Title order={3} size="h4">
              Order of Service
            </Title>
            <Text
              size="sm"
              c={times.overBy > 0 ? 'red.8' : 'dimmed'}
              fw={times.overBy > 0 ? 600 : undefined}
              data-testid="plan-length"
            >
              {minutesLabel(times.totalMinutes)}
              {times.endsAt && p.startTime ? ` · ends ${timeLabel(times.endsAt)}` : ''}
              {times.plannedMinutes !== null ? ` · planned ${minutesLabel(times.plannedMinutes)}` : ''}
              {times.overBy > 0 ? ` · ${minutesLabel(times.overBy)} over` : ''}
            </Text>
          </Stack>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setItemModal('new')}>
            Add Item
          </Button>
        </Group>
        {items.length ? (
          <>
            <Text size="xs" c="dimmed" mb="xs">
              Drag an item by its handle to move it, or focus the handle and press Space, then the arrow keys, then
              Space again.
            </Text>
            <ItemsList
              plan={p}
              items={items}
              onReorder={onReorder}
              onEdit={(item) => setItemModal(item)}
              onDelete={deleteItem}
            />
          </>
        ) : (
          <EmptyState
            icon={<IconPlus size={24} />}
            title="No items yet"
            description="Add the welcome, songs, prayer, sermon and the rest in order."
          />
        )}
      </Card>

      <TeamSection plan={p} />

      {p.announcements.length ? (
        <Card withBorder>
          <Title order={3} size="h4" mb="xs">
            Announcements
          </Title>
          <Stack gap={4}>
            {p.announcements.map((a) => (
              <Anchor key={`${a.kind}-${a.targetId}`} component={Link} to={a.path} size="sm">
                {DRAFT_LABELS[a.kind] ?? a.kind}: {a.name}
              </Anchor>
            ))}
          </Stack>
        </Card>
      ) : null}

      {editing ? <PlanFormModal plan={p} opened onClose={() => setEditing(false)} /> : null}
      {itemModal ? (
        <ItemModal
          planId={p.id}
          item={itemModal === 'new' ? undefined : itemModal}
          onClose={() => setItemModal(null)}
        />
      ) : null}
      {announcing ? <AnnounceModal plan={p} onClose={() => setAnnouncing(false)} /> : null}
      {duplicating ? (
        <DuplicatePlanModal
          plan={p}
          onClose={() => setDuplicating(false)}
          onSaved={(newId) => void navigate(`/service-planner/plans/${newId}`)}
        />
      ) : null}
    </Stack>
  );
}
