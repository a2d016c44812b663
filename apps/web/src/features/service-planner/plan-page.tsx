import { Anchor, Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { PlanItem } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { PageHeader } from '../../ui/page-header';
import { AnnounceModal, DRAFT_LABELS } from './announce-modal';
import { PlanStatusBadge, dayLabel, timeLabel } from './bits';
import { DuplicatePlanModal } from './duplicate-modal';
import { SaveTemplateModal } from './template-modals';
import { ItemModal } from './item-modal';
import { PlanFormModal } from './plan-form';
import { TeamSection } from './team-section';
import { PlanLoading, PlanLoadError } from './plan-load-states';
import { PlanActions } from './plan-actions';
import { OrderOfService } from './plan-order-of-service';

/** How often the plan refetches, so answers to scheduling requests show up on their own. */
const LIVE_MS = 10_000;

export function PlanPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const plan = trpc.servicePlanner.plans.get.useQuery({ id }, { enabled: id > 0, refetchInterval: LIVE_MS });
  const [order, setOrder] = useState<PlanItem[] | null>(null);
  // The dragged order shows until the plan is read again, or until the move fails.
  const reorder = useSave(trpc.servicePlanner.items.reorder, {
    errorTitle: 'Failed to reorder items',
    invalidate: (utils, _out, input) => utils.servicePlanner.plans.get.invalidate({ id: input.planId }),
    onSuccess: () => setOrder(null),
    onError: () => setOrder(null),
  });
  const delItem = useSave(trpc.servicePlanner.items.delete, {
    success: 'Item deleted',
    errorTitle: 'Failed to delete item',
    invalidate: (utils) => utils.servicePlanner.plans.invalidate(),
  });
  const delPlan = useSave(trpc.servicePlanner.plans.delete, {
    success: 'Plan deleted',
    errorTitle: 'Failed to delete plan',
    invalidate: (utils) => utils.servicePlanner.plans.invalidate(),
    onSuccess: () => navigate('/service-planner'),
  });
  const [editing, setEditing] = useState(false);
  const [itemModal, setItemModal] = useState<PlanItem | 'new' | null>(null);
  const [announcing, setAnnouncing] = useState(false);
  const [duplicating, setDuplicating] = useState(false);
  const [savingTemplate, setSavingTemplate] = useState(false);

  if (plan.isLoading) return <PlanLoading />;
  if (plan.isError || !plan.data) return <PlanLoadError error={plan.error} onRetry={() => void plan.refetch()} />;
  const p = plan.data;
  const items = order ?? p.items;

  const onReorder = (next: PlanItem[]) => {
    setOrder(next);
    reorder.mutate({ planId: p.id, itemIds: next.map((i) => i.id) });
  };
  const deleteItem = (item: PlanItem) =>
    confirmDestructive({
      title: 'Delete item',
      text: `Delete "${item.title}" from ${p.title}?`,
      confirm: 'Delete',
      onConfirm: () => delItem.mutate({ id: item.id }),
    });
  const deletePlan = () =>
    confirmDestructive({
      title: 'Delete plan',
      text: `Delete "${p.title}" on ${dayLabel(p.date)}? Its ${p.items.length} items and ${p.team.total} team assignments are deleted too.`,
      confirm: 'Delete',
      onConfirm: () => delPlan.mutate({ id: p.id }),
    });

  const when = [
    dayLabel(p.date),
    p.startTime ? `${timeLabel(p.startTime)}${p.endTime ? ` – ${timeLabel(p.endTime)}` : ''}` : null,
    p.serviceTimes.length > 1 ? `Services at ${p.serviceTimes.map(timeLabel).join(' and ')}` : null,
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
          <PlanActions
            plan={p}
            onEdit={() => setEditing(true)}
            onAnnounce={() => setAnnouncing(true)}
            onDuplicate={() => setDuplicating(true)}
            onSaveTemplate={() => setSavingTemplate(true)}
            onDelete={deletePlan}
          />
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

      <OrderOfService
        plan={p}
        items={items}
        onAdd={() => setItemModal('new')}
        onReorder={onReorder}
        onEdit={(item) => setItemModal(item)}
        onDelete={deleteItem}
      />

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
      {savingTemplate ? <SaveTemplateModal plan={p} onClose={() => setSavingTemplate(false)} /> : null}
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
