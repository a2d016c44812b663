import type { OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { fullName, type Contact } from './labels';

/** The server filtered already: the Select shows what it found. */
const showAll: OptionsFilter = ({ options }) => options;

type Found = { id: number; firstName: string; lastName: string; email: string | null; phone: string | null };

/** A contact as a picker offers it: the name, then the email (or the phone). */
export const contactChoiceLabel = (c: Found) =>
  `${fullName(c)}${c.email ? ` (${c.email})` : c.phone ? ` (${c.phone})` : ''}`;

/**
 * A searchable Select's half of picking one contact of the church: a page of 20 matches found by
 * the server as the person types (a church may have tens of thousands), and the chosen one kept
 * among the options while the next search runs. Spread `selectProps` on a Mantine Select.
 */
export function useContactSearch(opts: {
  enabled: boolean;
  chosen: Contact | null;
  /** Contacts not to offer (the one being merged into, say). */
  exclude?: (c: Contact) => boolean;
  nothingFound: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const found = trpc.contacts.find.useQuery(
    { search: debounced, tab: 'all', page: 1, pageSize: 20 },
    { enabled: opts.enabled },
  );
  const items: Contact[] = found.data?.items ?? [];
  const data = items
    .filter((c) => !opts.exclude?.(c))
    .map((c) => ({ value: String(c.id), label: contactChoiceLabel(c) }));
  if (opts.chosen && !data.some((o) => o.value === String(opts.chosen!.id)))
    data.unshift({ value: String(opts.chosen.id), label: contactChoiceLabel(opts.chosen) });
  return {
    /** The contact of an option value, from the current matches. */
    byValue: (v: string | null) => items.find((c) => String(c.id) === v) ?? null,
    reset: () => setSearch(''),
    selectProps: {
      searchable: true,
      searchValue: search,
      onSearchChange: setSearch,
      filter: showAll,
      data,
      nothingFoundMessage: found.isLoading ? 'Loading…' : opts.nothingFound,
    },
  };
}
