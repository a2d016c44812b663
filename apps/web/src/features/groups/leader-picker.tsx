import { MultiSelect, type OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { contactChoiceLabel } from '../contacts/contact-search';

/** A contact as the picker keeps it once chosen (its label stays while the next search runs). */
export interface PickedContact {
  contactId: number;
  name: string;
}

const showAll: OptionsFilter = ({ options }) => options;

/** Several contacts of the church, found by the server as the person types. */
export function ContactsPicker({
  label,
  value,
  onChange,
  error,
  description,
}: {
  label: string;
  value: PickedContact[];
  onChange: (next: PickedContact[]) => void;
  error?: string;
  description?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const found = trpc.contacts.find.useQuery({ search: debounced, tab: 'all', page: 1, pageSize: 20 });
  const items = found.data?.items ?? [];
  const data = [
    ...value.map((p) => ({ value: String(p.contactId), label: p.name })),
    ...items
      .filter((c) => !value.some((p) => p.contactId === c.id))
      .map((c) => ({ value: String(c.id), label: contactChoiceLabel(c) })),
  ];
  return (
    <MultiSelect
      label={label}
      description={description}
      error={error}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={showAll}
      data={data}
      nothingFoundMessage={found.isLoading ? 'Loading…' : 'No contacts found'}
      value={value.map((p) => String(p.contactId))}
      onChange={(ids) =>
        onChange(
          ids.map((id) => {
            const kept = value.find((p) => String(p.contactId) === id);
            if (kept) return kept;
            const c = items.find((x) => String(x.id) === id);
            return { contactId: Number(id), name: c ? `${c.firstName} ${c.lastName}`.trim() : id };
          }),
        )
      }
    />
  );
}
