import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconEdit, IconPlus, IconRoute } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  JOURNEY_STARTERS,
  journeyNameSchema,
  type JourneyFieldsInput,
  type JourneyOutput,
} from '@lampstand/api/schemas/journeys';
import { describeTrigger } from '@lampstand/api/shared/journeys';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { EmptyState } from '../../ui/empty-state';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { useJourneyRefs, Words, type JourneyRefs } from './journey-refs';
import { STATUS_COLORS, STATUS_LABELS } from './journey-words';
import classes from './list-page.module.css';

function JourneyCard({ journey, refs }: { journey: JourneyOutput; refs: JourneyRefs }) {
  const c = journey.counts;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="center" wrap="nowrap">
        <Badge color={STATUS_COLORS[journey.status]} variant="light">
          {STATUS_LABELS[journey.status]}
        </Badge>
        <Text size="xs" c="dimmed">
          {journey.steps.length} {journey.steps.length === 1 ? 'step' : 'steps'}
        </Text>
      </Group>
      <Text fw={600} component="h2" size="lg" m={0} mt="xs" style={{ overflowWrap: 'break-word' }}>
        {journey.name}
      </Text>
      <Words text={describeTrigger(journey.trigger, refs.names)} size="sm" c="dimmed" mt={4} />
      <SimpleGrid cols={4} spacing="xs" mt="md" component="dl" className={classes.counts}>
        {(
          [
            ['Active', c.active],
            ['Completed', c.completed],
            ['Converted', c.converted],
            ['Exited', c.exited],
          ] as const
        ).map(([label, n]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" fw={700} m={0}>
              {formatNumber(n)}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <Group mt="md">
        <Button
          size="xs"
          leftSection={<IconEdit size={18} />}
          component={Link}
          to={`/journeys/${journey.id}`}
          aria-label={`Open ${journey.name}`}
        >
          Open
        </Button>
      </Group>
    </Card>
  );
}

export function JourneysPage() {
  const journeys = trpc.journeys.list.useQuery();
  const refs = useJourneyRefs();
  const [creating, setCreating] = useState(false);
  // Archived journeys keep their figures, below the others.
  const current = journeys.data?.filter((j) => j.status !== 'archived') ?? [];
  const archived = journeys.data?.filter((j) => j.status === 'archived') ?? [];
  const newButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
      New journey
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Journeys"
        description="Follow every newcomer, giver and volunteer over weeks, by email, text and staff tasks."
        action={newButton}
      />
      {journeys.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={200} radius="md" />
          ))}
        </SimpleGrid>
      ) : journeys.error ? (
        <Alert color="red" title="Error">
          There was an error loading your journeys. Please try again later.
        </Alert>
      ) : journeys.data && journeys.data.length === 0 ? (
        <EmptyState
          icon={<IconRoute size={24} />}
          title="No journeys yet"
          description="Welcome a first-time guest, thank a first-time giver: start from a ready journey or a blank one."
          action={newButton}
        />
      ) : (
        <>
          {current.length === 0 ? (
            <Text c="dimmed">Every journey is archived. Start a new one with New journey.</Text>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {current.map((j) => (
              <JourneyCard key={j.id} journey={j} refs={refs} />
            ))}
          </SimpleGrid>
          {archived.length > 0 ? (
            <Stack gap="sm" mt="xl">
              <Title order={2} size="h4">
                Archived
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                {archived.map((j) => (
                  <JourneyCard key={j.id} journey={j} refs={refs} />
                ))}
              </SimpleGrid>
            </Stack>
          ) : null}
        </>
      )}
      {creating ? <NewJourneyDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}

/** 'New journey': one of the four ready journeys, or a blank one with a name. */
function NewJourneyDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useSave(trpc.journeys.create, {
    success: (j) => ['Journey created', `${j.name} is a draft: check its steps, then activate it.`],
    errorTitle: 'Failed to create journey',
    invalidate: (utils) => utils.journeys.list.invalidate(),
    onSuccess: (j) => navigate(`/journeys/${j.id}`),
  });
  const start = (fields: JourneyFieldsInput) => create.mutate(fields);
  const blank = () => {
    const parsed = journeyNameSchema.safeParse(name);
    if (!parsed.success) return setNameError(parsed.error.issues[0]?.message ?? 'Journey name is required');
    start({ name: parsed.data, trigger: { kind: 'manual' }, steps: [] });
  };
  return (
    <Modal opened onClose={onClose} title="New journey" size="xl">
      <Stack>
        <Text size="sm">Start from a ready journey (everything in it can be changed) or from a blank one.</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {JOURNEY_STARTERS.map((s) => (
            <UnstyledButton
              key={s.key}
              className={classes.starter}
              onClick={() => start(s.fields)}
              disabled={create.isPending}
            >
              <Text fw={600}>
                <VisuallyHidden>Start from</VisuallyHidden> {s.name}
              </Text>
              <Text size="sm" c="dimmed">
                {s.description}
              </Text>
            </UnstyledButton>
          ))}
        </SimpleGrid>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            blank();
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Or a blank journey named"
              placeholder="Easter follow-up"
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setNameError(null);
              }}
              error={nameError}
              style={{ flex: 1, minWidth: 220 }}
            />
            <Button type="submit" variant="default" loading={create.isPending}>
              Start blank
            </Button>
          </Group>
        </form>
      </Stack>
    </Modal>
  );
}
