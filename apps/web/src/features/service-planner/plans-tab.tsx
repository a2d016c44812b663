import { Alert, Button, Group, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconCategory, IconCopy, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { PlanSummary } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { DataTable, RowActionsMenu } from '../../ui/data-table';
import { DuplicatePlanModal } from './duplicate-modal';
import { ItemTypesModal } from './item-types-modal';
import { PlanFormModal } from './plan-form';
import { PlanStatusBadge, dayLabel, timeLabel } from './bits';
import { AutoScheduleButton } from './auto-schedule-modal';
import { FromTemplateButton } from './template-modals';
import { PLANNER_STALE_MS } from './planner-cache';

function teamFill(p: PlanSummary) {
  return p.team.total ? `${p.team.confirmed} of ${p.team.total} confirmed` : 'No one scheduled';
}

export function PlansTab() {
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  const plans = trpc.servicePlanner.plans.list.useQuery({ when }, { staleTime: PLANNER_STALE_MS });
  const [creating, setCreating] = useState(false);
  const [types, setTypes] = useState(false);
  const [duplicating, setDuplicating] = useState<PlanSummary | null>(null);
  const navigate = useNavigate();
  const del = useSave(trpc.servicePlanner.plans.delete, {
    success: 'Plan deleted',
    errorTitle: 'Failed to delete plan',
    invalidate: (utils) => utils.servicePlanner.plans.invalidate(),
  });

  const remove = (p: PlanSummary) =>
    confirmDestructive({
      title: 'Delete plan',
      text: `Delete "${p.title}" on ${dayLabel(p.date)}? Its ${p.itemCount} items and ${p.team.total} team assignments are deleted too.`,
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: p.id }),
    });

  const actions = (p: PlanSummary) => (
    <RowActionsMenu
      label={`Actions for ${p.title} on ${dayLabel(p.date)}`}
      items={[
        { label: 'Open', icon: <IconEye size={16} />, to: `/service-planner/plans/${p.id}` },
        { label: 'Duplicate', icon: <IconCopy size={16} />, onClick: () => setDuplicating(p) },
        { label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => remove(p) },
      ]}
    />
  );

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          aria-label="Which plans"
          value={when}
          onChange={(v) => setWhen(v)}
          data={[
            { value: 'upcoming', label: 'Upcoming' },
            { value: 'past', label: 'Past' },
          ]}
        />
        <Group gap="xs" wrap="wrap">
          <AutoScheduleButton />
          <FromTemplateButton />
          <Button variant="default" leftSection={<IconCategory size={18} />} onClick={() => setTypes(true)}>
            Item Types
          </Button>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            New Plan
          </Button>
        </Group>
      </Group>
      {plans.isError ? (
        <Alert color="red" title="Error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Failed to load service plans. Please try again.</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void plans.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : plans.isLoading ? (
        <Stack>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height={48} />
          ))}
        </Stack>
      ) : !plans.data?.length ? (
        <EmptyState
          icon={<IconCalendarEvent size={24} />}
          title={when === 'upcoming' ? 'No upcoming service plans' : 'No past service plans'}
          description="Plan a service: its order, songs and team."
          action={
            when === 'upcoming' ? (
              <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
                New Plan
              </Button>
            ) : undefined
          }
        />
      ) : (
        <DataTable
          label="Service plans"
          rows={plans.data}
          rowKey={(p) => p.id}
          minWidth={640}
          stickyHeader
          actionsHeader="hidden"
          actionsTd={{ ta: 'right' }}
          actions={actions}
          columns={[
            {
              header: 'Date',
              cell: (p) => (
                <>
                  <Text size="sm">{dayLabel(p.date)}</Text>
                  {p.startTime ? (
                    <Text size="xs" c="dimmed">
                      {timeLabel(p.startTime)}
                    </Text>
                  ) : null}
                </>
              ),
            },
            {
              header: 'Title',
              card: 'title',
              cell: (p) => (
                <Text size="sm" fw={600} component={Link} to={`/service-planner/plans/${p.id}`} c="indigo.9">
                  {p.title}
                </Text>
              ),
            },
            { header: 'Theme', cell: (p) => (p.theme ? <Text size="sm">{p.theme}</Text> : null) },
            { header: 'Status', cell: (p) => <PlanStatusBadge status={p.status} /> },
            { header: 'Team', cell: (p) => <Text size="sm">{teamFill(p)}</Text> },
          ]}
        />
      )}
      {creating ? (
        <PlanFormModal
          opened
          onClose={() => setCreating(false)}
          onSaved={(id) => void navigate(`/service-planner/plans/${id}`)}
        />
      ) : null}
      {types ? <ItemTypesModal onClose={() => setTypes(false)} /> : null}
      {duplicating ? (
        <DuplicatePlanModal
          plan={duplicating}
          onClose={() => setDuplicating(null)}
          onSaved={(id) => void navigate(`/service-planner/plans/${id}`)}
        />
      ) : null}
    </Stack>
  );
}
