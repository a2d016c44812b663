import { Alert, Badge, Button, Group, Modal, Radio, Select, Stack, Text, Timeline } from '@mantine/core';
import { useState } from 'react';
import { type JourneyOutput } from '@lampstand/api/schemas/journeys';
import { describeStep } from '@lampstand/api/shared/journeys';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { timeZoneLabel, useChurchTimeZone } from '../../lib/time-zone';
import { formatTime } from '../../ui/format';
import { useSession } from '../../shell/session';
import type { Contact } from '../contacts/labels';
import { useContactSearch } from '../contacts/contact-search';
import { useJourneyRefs, Words } from './journey-refs';

const capitalise = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

const OUTCOME: Record<string, { label: string; color: string }> = {
  done: { label: 'Done', color: 'green' },
  skipped: { label: 'Skipped', color: 'gray' },
  yes: { label: 'Yes', color: 'green' },
  no: { label: 'No', color: 'red' },
  failed: { label: 'Failed', color: 'red' },
};

/**
 * 'Test this journey': one contact (or the account's own address) goes through it with waits of
 * seconds, for real; each step shows here as it happens.
 */
export function TestDialog({ journey, onClose }: { journey: JourneyOutput; onClose: () => void }) {
  const { user } = useSession();
  const refs = useJourneyRefs();
  const timeZone = useChurchTimeZone();
  const [who, setWho] = useState<'me' | 'contact'>('me');
  const [contact, setContact] = useState<Contact | null>(null);
  const search = useContactSearch({ enabled: who === 'contact', chosen: contact, nothingFound: 'No contacts found' });
  const [enrollmentId, setEnrollmentId] = useState<number | null>(null);
  const start = useSave(trpc.journeys.test, {
    success: ['Test started', 'Waits are shortened to seconds.'],
    errorTitle: 'Failed to start the test',
    onSuccess: (r) => setEnrollmentId(r.enrollmentId),
  });
  const runs = trpc.journeys.enrollmentRuns.useQuery(
    { enrollmentId: enrollmentId ?? 0 },
    {
      enabled: enrollmentId !== null,
      refetchInterval: (q) => (q.state.data?.status === 'active' ? 1000 : false),
    },
  );
  const texts = journey.steps.some((s) => s.kind === 'sms');
  const byId = new Map(journey.steps.map((s, i) => [s.id, { step: s, number: i + 1 }]));
  const data = runs.data;
  const status = data?.status;
  return (
    <Modal opened onClose={onClose} title={`Test ${journey.name}`} size="lg">
      <Stack>
        {enrollmentId === null ? (
          <>
            <Text size="sm">
              One person goes through the journey now, with each wait shortened to seconds. Every email and text is sent
              for real, to that person only.
            </Text>
            {texts ? (
              <Alert color="yellow" variant="light" title="Quiet hours are skipped in a test">
                Its texts go out at any time of day. For everyone else, a text due between 9:00 PM and 8:00 AM waits
                until 8:00 AM ({timeZoneLabel(timeZone)}).
              </Alert>
            ) : null}
            <Radio.Group label="Send the test to" value={who} onChange={(v) => setWho(v)}>
              <Stack gap="xs" mt="xs">
                <Radio value="me" label={`My own address${user?.email ? ` (${user.email})` : ''}`} />
                <Radio value="contact" label="A contact" />
              </Stack>
            </Radio.Group>
            {who === 'contact' ? (
              <Select
                label="Contact"
                placeholder="Search contacts"
                {...search.selectProps}
                value={contact ? String(contact.id) : null}
                onChange={(v) => setContact(search.byValue(v))}
              />
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button
                loading={start.isPending}
                disabled={who === 'contact' && !contact}
                onClick={() => start.mutate({ id: journey.id, contactId: who === 'contact' ? contact!.id : null })}
              >
                Start test
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Group gap="xs">
              <Text size="sm" fw={500}>
                {status === 'active' || !status ? 'Running…' : 'Finished'}
              </Text>
              {texts ? (
                <Badge color="yellow" variant="light">
                  Quiet hours skipped
                </Badge>
              ) : null}
              {status && status !== 'active' ? <Badge variant="light">{status}</Badge> : null}
            </Group>
            {data && data.runs.length === 0 ? (
              <Text size="sm" c="dimmed">
                Waiting for the first step…
              </Text>
            ) : null}
            <Timeline bulletSize={18} lineWidth={2} active={(data?.runs.length ?? 0) - 1} aria-label="Steps so far">
              {(data?.runs ?? []).map((r, i) => {
                const s = byId.get(r.stepId);
                const outcome = OUTCOME[r.outcome] ?? { label: r.outcome, color: 'gray' };
                return (
                  <Timeline.Item
                    key={`${r.stepId}-${i}`}
                    title={
                      <Group gap="xs">
                        <Text size="sm" fw={500}>
                          {s ? `Step ${s.number}` : r.kind}
                        </Text>
                        <Badge size="sm" color={outcome.color} variant="light">
                          {outcome.label}
                        </Badge>
                        <Text size="xs" c="dimmed">
                          {formatTime(r.at, timeZone)}
                        </Text>
                      </Group>
                    }
                  >
                    {s ? <Words text={capitalise(describeStep(s.step, refs.names))} size="sm" /> : null}
                    {r.detail ? (
                      <Text size="xs" c="dimmed">
                        {r.detail}
                      </Text>
                    ) : null}
                  </Timeline.Item>
                );
              })}
            </Timeline>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
