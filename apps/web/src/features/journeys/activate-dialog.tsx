import { Alert, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { JourneyOutput } from '@lampstand/api/schemas/journeys';
import { suppressedSentence } from '@lampstand/api/shared/suppressions';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSave } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';
import { Words } from './journey-refs';
import { messagesOfError, problemsOf, type Problems } from './problems';

/**
 * Activation asks first: the journey in one sentence, how many people its trigger could reach,
 * and, when it cannot run, each reason ('Step 3: the email has no content').
 */
export function ActivateDialog({
  journey,
  summary,
  onProblems,
  onClose,
}: {
  journey: JourneyOutput;
  summary: string;
  onProblems: (p: Problems) => void;
  onClose: () => void;
}) {
  const check = trpc.journeys.activationCheck.useQuery({ id: journey.id });
  const [refused, setRefused] = useState<string[]>([]);
  const activate = useSave(trpc.journeys.activate, {
    success: ['Journey activated', `${journey.name} is running.`],
    errorTitle: 'Failed to activate journey',
    invalidate: (utils) => [utils.journeys.get.invalidate({ id: journey.id }), utils.journeys.list.invalidate()],
    onSuccess: () => {
      onProblems(problemsOf([]));
      onClose();
    },
    onError: (e) => {
      const messages = messagesOfError(e);
      setRefused(messages.map((m) => m.message));
      onProblems(problemsOf(messages));
    },
  });
  const problems = refused.length ? refused : (check.data?.problems ?? []);
  // What cannot run shows on the steps too ('Step 3: …' on step 3's card).
  const checked = check.data?.problems;
  useEffect(() => {
    if (checked) onProblems(problemsOf(checked.map((message) => ({ message }))));
  }, [checked, onProblems]);
  const reach = check.data?.reach;
  return (
    <Modal opened onClose={onClose} title={`Activate ${journey.name}?`} size="lg">
      <Stack>
        <Words text={summary} size="sm" />
        {check.isLoading ? (
          <Group gap="xs">
            <Loader size="xs" aria-label="Checking the journey" />
            <Text size="sm">Checking the journey…</Text>
          </Group>
        ) : check.error ? (
          <Alert color="red">{errorMessage(check.error)}</Alert>
        ) : problems.length ? (
          <Alert color="red" title="This journey cannot run yet">
            <List size="sm" spacing={2}>
              {problems.map((p) => (
                <List.Item key={p}>{p}</List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <Text size="sm" fw={500}>
            {reach === null || reach === undefined
              ? 'Each person the trigger finds from now on enters the journey.'
              : `The trigger could reach ${formatNumber(reach)} ${reach === 1 ? 'person' : 'people'} now.`}{' '}
            Messages go out under your consent and sending rules.
            {check.data?.suppressed ? ` ${suppressedSentence(check.data.suppressed)}` : ''}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => activate.mutate({ id: journey.id })}
            loading={activate.isPending}
            disabled={check.isLoading || problems.length > 0}
          >
            Activate
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
