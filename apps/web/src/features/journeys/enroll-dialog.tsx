import { Alert, Button, Group, Modal, MultiSelect, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { JourneyOutput } from '@lampstand/api/schemas/journeys';
import { suppressedSentence } from '@lampstand/api/shared/suppressions';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';
import { contactChoiceLabel } from '../contacts/contact-search';
import type { JourneyRefs, Option } from './journey-refs';

const people = (n: number) => `${formatNumber(n)} ${n === 1 ? 'person' : 'people'}`;

/** 'Enrol people': chosen contacts, or everyone on a list, now (the entry rule still applies). */
export function EnrollDialog({
  journey,
  refs,
  onClose,
}: {
  journey: JourneyOutput;
  refs: JourneyRefs;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<'contacts' | 'list'>('contacts');
  const [contactIds, setContactIds] = useState<string[]>([]);
  const [chosen, setChosen] = useState<Option[]>([]);
  const [listId, setListId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const found = trpc.contacts.find.useQuery({ search: debounced, tab: 'all', page: 1, pageSize: 20 });
  const options = [
    ...chosen,
    ...(found.data?.items ?? [])
      .map((c) => ({ value: String(c.id), label: contactChoiceLabel(c) }))
      .filter((o) => !chosen.some((c) => c.value === o.value)),
  ];
  const enroll = useSave(trpc.journeys.enroll, {
    success: (r) => [
      'People enrolled',
      `${people(r.enrolled)} entered ${journey.name}.` +
        (r.skipped ? ` ${people(r.skipped)} left out (already in it, or not allowed in again yet).` : ''),
    ],
    errorTitle: 'Failed to enrol people',
    invalidate: (utils) => [utils.journeys.stats.invalidate({ id: journey.id }), utils.journeys.list.invalidate()],
    onSuccess: onClose,
  });
  const count = mode === 'contacts' ? contactIds.length : listId ? refs.listCount(Number(listId)) : undefined;
  const ready = mode === 'contacts' ? contactIds.length > 0 : Boolean(listId);
  // A journey with email steps says, before enrolling, how many addresses it will skip.
  const emails = journey.steps.some((s) => s.kind === 'email');
  const suppressed = trpc.suppressions.count.useQuery(
    mode === 'contacts' ? { contactIds: contactIds.map(Number) } : { listId: Number(listId) },
    { enabled: emails && ready },
  ).data?.suppressed;
  return (
    <Modal opened onClose={onClose} title={`Enrol people in ${journey.name}`} size="lg">
      <Stack>
        {journey.status !== 'active' ? (
          <Alert color="yellow">Activate the journey before enrolling people.</Alert>
        ) : null}
        <SegmentedControl
          aria-label="Enrol"
          value={mode}
          onChange={(m) => setMode(m)}
          data={[
            { value: 'contacts', label: 'Chosen contacts' },
            { value: 'list', label: 'Everyone on a list' },
          ]}
        />
        {mode === 'contacts' ? (
          <MultiSelect
            label="Contacts"
            placeholder="Search by name, email or phone"
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: o }) => o}
            data={options}
            value={contactIds}
            onChange={(ids) => {
              setContactIds(ids);
              setChosen(options.filter((o) => ids.includes(o.value)));
            }}
            nothingFoundMessage={found.isLoading ? 'Loading…' : 'No contacts found'}
          />
        ) : (
          <Select
            label="List"
            placeholder="Choose a list"
            data={refs.lists}
            value={listId}
            onChange={setListId}
            searchable
          />
        )}
        {ready && suppressed ? <Text size="sm">{suppressedSentence(suppressed)}</Text> : null}
        <Text size="sm" c="dimmed">
          Each person enters under the journey’s entry rule; someone already in it, or who may not enter again yet, is
          left out.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!ready || journey.status !== 'active'}
            loading={enroll.isPending}
            onClick={() =>
              enroll.mutate(
                mode === 'contacts'
                  ? { id: journey.id, contactIds: contactIds.map(Number) }
                  : { id: journey.id, listId: Number(listId) },
              )
            }
          >
            {count === undefined ? 'Enrol' : `Enrol ${people(count)}`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
