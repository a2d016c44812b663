import { Alert, Anchor, Badge, Button, Card, Group, Loader, Menu, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconArchive,
  IconChevronDown,
  IconFlask,
  IconInfoCircle,
  IconPlayerPause,
  IconPlayerPlay,
  IconSettings,
  IconTrash,
  IconUserPlus,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  type JourneyFields,
  type JourneyOutput,
  type JourneyStep,
  type JourneyStepKind,
} from '@lampstand/api/schemas/journeys';
import { describeJourney } from '@lampstand/api/shared/journeys';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';
import { ActivateDialog } from './activate-dialog';
import { noProblems, problemsOfError, type Problems } from './problems';
import { EnrollDialog } from './enroll-dialog';
import { Flow, type StepStats } from './flow';
import { blankStep, insertAt, newStepId, removeStep, replaceStep, slotTarget, type Slot } from './flow-model';
import { SummaryWords, useJourneyRefs } from './journey-refs';
import { entryWords, goalWords, STATUS_COLORS, STATUS_LABELS } from './journey-words';
import { PeoplePanel } from './people-panel';
import { SettingsDrawer } from './settings-drawer';
import { StepDrawer } from './step-drawer';
import { TestDialog } from './test-dialog';

const fieldsOf = (j: JourneyOutput): JourneyFields => ({
  name: j.name,
  description: j.description,
  trigger: j.trigger,
  entryRule: j.entryRule,
  goal: j.goal,
  steps: j.steps,
});

export function JourneyEditorPage() {
  const { id } = useParams();
  const journey = trpc.journeys.get.useQuery({ id: Number(id) }, { enabled: Number(id) > 0 });
  if (journey.isLoading)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading journey" />
      </Group>
    );
  if (journey.error || !journey.data)
    return (
      <Alert color="red" title="Error">
        {errorMessage(journey.error, 'This journey could not be loaded.')}{' '}
        <Anchor component={Link} to="/journeys">
          Back to Journeys
        </Anchor>
      </Alert>
    );
  return <Editor key={journey.data.id} journey={journey.data} />;
}

type Editing = { step: JourneyStep; number: number; slot?: Slot } | null;

function Editor({ journey }: { journey: JourneyOutput }) {
  const navigate = useNavigate();
  const refs = useJourneyRefs();
  const [draft, setDraft] = useState<JourneyFields>(() => fieldsOf(journey));
  const [editing, setEditing] = useState<Editing>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [dialog, setDialog] = useState<'activate' | 'enroll' | 'test' | null>(null);
  const [problems, setProblems] = useState<Problems>(noProblems);
  const stats = trpc.journeys.stats.useQuery({ id: journey.id }, { refetchInterval: 15_000 });
  const statsById = useMemo(
    () => new Map<string, StepStats>((stats.data?.steps ?? []).map((s) => [s.stepId, s])),
    [stats.data],
  );
  const dirty = JSON.stringify(draft) !== JSON.stringify(fieldsOf(journey));
  const guard = useUnsavedChangesGuard(dirty, 'This journey');

  const save = useSave(trpc.journeys.update, {
    success: (j) =>
      journey.status === 'active' && j.version !== journey.version
        ? ['Journey saved', `Version ${j.version} is for people who enter from now on.`]
        : 'Journey saved',
    errorTitle: 'Failed to save journey',
    invalidate: (utils) => [
      utils.journeys.get.invalidate({ id: journey.id }),
      utils.journeys.stats.invalidate({ id: journey.id }),
      utils.journeys.list.invalidate(),
    ],
    // The draft becomes what the server holds (its ids and defaults), so it is not dirty.
    onSuccess: (j) => {
      setDraft(fieldsOf(j));
      setProblems(noProblems);
    },
    onError: (e) => setProblems(problemsOfError(e)),
  });
  const saveDraft = () => save.mutateAsync({ id: journey.id, ...draft });
  const pause = useSave(trpc.journeys.pause, {
    success: ['Journey paused', 'No one moves on or enters until you activate it again.'],
    errorTitle: 'Failed to pause journey',
    invalidate: (utils) => [utils.journeys.get.invalidate({ id: journey.id }), utils.journeys.list.invalidate()],
  });
  const archive = useSave(trpc.journeys.archive, {
    success: ['Journey archived', 'It keeps its figures; no one enters it again.'],
    errorTitle: 'Failed to archive journey',
    invalidate: (utils) => [
      utils.journeys.get.invalidate({ id: journey.id }),
      utils.journeys.stats.invalidate({ id: journey.id }),
      utils.journeys.list.invalidate(),
    ],
  });
  const archived = journey.status === 'archived';
  const remove = useSave(trpc.journeys.delete, {
    success: 'Journey deleted',
    errorTitle: 'Failed to delete journey',
    invalidate: (utils) => utils.journeys.list.invalidate(),
    onSuccess: () => {
      guard.leaveWithoutAsking();
      void navigate('/journeys');
    },
  });

  const setSteps = (steps: JourneyStep[]) => setDraft((d) => ({ ...d, steps }));
  const addStep = (slot: Slot, kind: JourneyStepKind) => {
    const step = blankStep(kind, newStepId(draft.steps), slotTarget(draft.steps, slot));
    setEditing({ step, number: 0, slot });
  };
  const saveStep = (step: JourneyStep) => {
    if (editing?.slot) setSteps(insertAt(draft.steps, editing.slot, step));
    else setSteps(replaceStep(draft.steps, step));
    setEditing(null);
  };
  const askRemove = (step: JourneyStep, number: number) => {
    const { steps, alsoRemoved } = removeStep(draft.steps, step.id);
    const apply = () => {
      setSteps(steps);
      setEditing(null);
    };
    if (alsoRemoved.length === 0) return apply();
    confirmDestructive({
      title: `Remove step ${number}?`,
      text: `The branch’s no path goes with it: ${formatNumber(alsoRemoved.length)} ${alsoRemoved.length === 1 ? 'step' : 'steps'}. The yes path takes its place.`,
      confirm: 'Remove',
      onConfirm: apply,
    });
  };
  // Activation and a test run the saved journey: unsaved changes are saved first.
  const openAfterSave = async (which: 'activate' | 'test') => {
    if (dirty) {
      try {
        await saveDraft();
      } catch {
        return;
      }
    }
    setDialog(which);
  };
  const askPause = () =>
    modals.openConfirmModal({
      title: `Pause ${journey.name}?`,
      children: (
        <Text size="sm">
          {formatNumber(journey.counts.active)} {journey.counts.active === 1 ? 'person is' : 'people are'} in this
          journey. While it is paused no one new enters and no one moves on to a next step; they go on when you activate
          it again.
        </Text>
      ),
      labels: { confirm: 'Pause', cancel: 'Cancel' },
      onConfirm: () => pause.mutate({ id: journey.id }),
    });

  const rawSummary = describeJourney(draft, refs.names);
  const summary = refs.fill(rawSummary);
  const counts = stats.data?.counts ?? journey.counts;
  return (
    <Stack gap="md">
      <PageHeader
        title={journey.name}
        description={
          <Group gap="xs" component="span">
            <Badge color={STATUS_COLORS[journey.status]} variant="light" component="span">
              {STATUS_LABELS[journey.status]}
            </Badge>
            <span>Version {journey.version}</span>
            <Anchor component={Link} to="/journeys" size="sm">
              All journeys
            </Anchor>
          </Group>
        }
        action={
          <Group gap="xs">
            {archived ? null : (
              <>
                <Button
                  variant={dirty ? 'filled' : 'default'}
                  disabled={!dirty}
                  loading={save.isPending}
                  onClick={() => void saveDraft().catch(() => undefined)}
                >
                  Save
                </Button>
                {journey.status === 'active' ? (
                  <Button
                    variant="default"
                    leftSection={<IconPlayerPause size={18} />}
                    onClick={askPause}
                    loading={pause.isPending}
                  >
                    Pause
                  </Button>
                ) : (
                  <Button leftSection={<IconPlayerPlay size={18} />} onClick={() => void openAfterSave('activate')}>
                    Activate
                  </Button>
                )}
              </>
            )}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                  More
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {archived ? null : (
                  <>
                    <Menu.Item leftSection={<IconUserPlus size={16} />} onClick={() => setDialog('enroll')}>
                      Enrol people
                    </Menu.Item>
                    <Menu.Item leftSection={<IconFlask size={16} />} onClick={() => void openAfterSave('test')}>
                      Test this journey
                    </Menu.Item>
                    <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => setSettingsOpen(true)}>
                      Trigger and settings
                    </Menu.Item>
                    <Menu.Divider />
                    <Menu.Item
                      leftSection={<IconArchive size={16} />}
                      onClick={() =>
                        confirmDestructive({
                          title: 'Archive journey',
                          text: `Archive ${journey.name}? It stops for good and keeps its figures. The ${formatNumber(counts.active)} people in it leave it now; their past steps stay in their Activity.`,
                          confirm: 'Archive',
                          onConfirm: () => archive.mutate({ id: journey.id }),
                        })
                      }
                    >
                      Archive
                    </Menu.Item>
                  </>
                )}
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  onClick={() =>
                    confirmDestructive({
                      title: 'Delete journey',
                      text: `Delete ${journey.name}? The ${formatNumber(counts.active)} people in it leave it now; their past steps stay in their Activity.`,
                      confirm: 'Delete',
                      onConfirm: () => remove.mutate({ id: journey.id }),
                    })
                  }
                >
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        }
      />

      {archived ? (
        <Alert color="gray" icon={<IconArchive size={18} />} title="This journey is archived">
          No one enters it and no step runs. It keeps its figures and each person’s steps; it cannot be changed or
          started again.
        </Alert>
      ) : null}
      {journey.status === 'active' ? (
        <Alert color="indigo" icon={<IconInfoCircle size={18} />} title="This journey is running">
          Saving changes creates a new version for people who enter from now on. The {formatNumber(counts.active)}{' '}
          {counts.active === 1 ? 'person' : 'people'} already in it finish on their version.
        </Alert>
      ) : null}
      {problems.other.length > 0 || problems.steps.size > 0 ? (
        <Alert color="red" title="This journey cannot run yet">
          <Stack gap={2}>
            {[...problems.other, ...[...problems.steps.values()]].map((m) => (
              <Text key={m} size="sm">
                {m}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}

      <Card withBorder padding="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Stack gap={4} style={{ flex: 1, minWidth: 240 }}>
            <Title order={2} size="h5">
              Summary
            </Title>
            <SummaryWords raw={rawSummary} sample={refs.sample} />
            <Text size="xs" c="dimmed">
              {entryWords(draft.entryRule)} · {goalWords(draft.goal, refs.names)}
            </Text>
          </Stack>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconSettings size={16} />}
            onClick={() => setSettingsOpen(true)}
          >
            Trigger and settings
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} mt="md">
          {(
            [
              ['In the journey', counts.active],
              ['Completed', counts.completed],
              ['Converted', counts.converted],
              ['Exited', counts.exited],
            ] as const
          ).map(([label, n]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={700} size="lg">
                {formatNumber(n)}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Card>

      <Card withBorder padding="md">
        <Title order={2} size="h5" mb="sm">
          Steps
        </Title>
        <Flow
          steps={draft.steps}
          refs={refs}
          stats={statsById}
          errors={problems.steps}
          onEdit={(step, number) => setEditing({ step, number })}
          onAdd={addStep}
          readOnly={archived}
        />
      </Card>

      <PeoplePanel journey={journey} />

      {editing ? (
        <StepDrawer
          key={editing.step.id}
          step={editing.step}
          number={editing.number}
          isNew={Boolean(editing.slot)}
          serverError={editing.slot ? undefined : problems.steps.get(editing.number)}
          refs={refs}
          onSave={saveStep}
          onRemove={() => askRemove(editing.step, editing.number)}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {settingsOpen ? (
        <SettingsDrawer
          settings={draft}
          refs={refs}
          onApply={(s) => {
            setDraft((d) => ({ ...d, ...s }));
            setSettingsOpen(false);
          }}
          onClose={() => setSettingsOpen(false)}
        />
      ) : null}
      {dialog === 'activate' ? (
        <ActivateDialog journey={journey} summary={summary} onProblems={setProblems} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'enroll' ? <EnrollDialog journey={journey} refs={refs} onClose={() => setDialog(null)} /> : null}
      {dialog === 'test' ? <TestDialog journey={journey} onClose={() => setDialog(null)} /> : null}
    </Stack>
  );
}
