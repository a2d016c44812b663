import { Combobox, Kbd, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState, type KeyboardEvent, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SearchKind, SearchResult } from '@lampstand/api/schemas/search';
import { trpc } from '../lib/trpc';
import { formatDate } from '../ui/format';
import { SEARCH_KIND_LABELS, searchResultPath, searchValue } from './search-results';
import classes from './app-layout.module.css';

/** Fewer letters than this are not searched (the server finds nothing for them either). */
export const MIN_QUERY = 2;

function ResultLine({ r }: { r: SearchResult }) {
  const second = r.kind === 'plan' && r.date ? formatDate(r.date) : r.note;
  return (
    <>
      <Text size="sm" fw={500} lineClamp={1}>
        {r.name}
      </Text>
      {second ? (
        <Text size="xs" c="dimmed" lineClamp={1}>
          {second}
        </Text>
      ) : null}
    </>
  );
}

/**
 * The search box and its dropdown of results grouped by kind: typing searches (after a short
 * pause), arrows move through the results, Enter opens the chosen one (or the first), Escape closes.
 */
export function SearchBox({
  inputRef,
  initial,
  className,
  onDone,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  /** What was typed while the box loaded. */
  initial: string;
  className: string | undefined;
  onDone?: () => void;
}) {
  const navigate = useNavigate();
  const [q, setQ] = useState(initial);
  const [debounced] = useDebouncedValue(q.trim(), 200);
  const store = useCombobox({ onDropdownClose: () => store.resetSelectedOption() });
  const enabled = debounced.length >= MIN_QUERY;
  const search = trpc.search.everything.useQuery(
    { q: debounced },
    { enabled, staleTime: 30_000, placeholderData: keepPreviousData },
  );
  const results = enabled ? (search.data?.results ?? []) : [];
  // Grouped by kind in the order the server sends them (the schemas, and zod, stay out of the shell).
  const groups: { kind: SearchKind; items: SearchResult[] }[] = [];
  for (const r of results) {
    const last = groups.at(-1);
    if (last?.kind === r.kind) last.items.push(r);
    else groups.push({ kind: r.kind, items: [r] });
  }
  const waiting = q.trim() !== debounced || (enabled && search.isFetching && !search.data);

  const open = (value: string) => {
    const r = results.find((x) => searchValue(x) === value);
    if (!r) return;
    setQ('');
    store.closeDropdown();
    inputRef.current?.blur();
    onDone?.();
    void navigate(searchResultPath(r));
  };
  // Enter with no result chosen opens the first one.
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' && store.getSelectedOptionIndex() === -1 && results[0] && !waiting) {
      e.preventDefault();
      open(searchValue(results[0]));
    }
    if (e.key === 'Escape' && !store.dropdownOpened) {
      setQ('');
      inputRef.current?.blur();
      onDone?.();
    }
  };

  return (
    <Combobox store={store} onOptionSubmit={open} shadow="md" position="bottom-start" zIndex={300}>
      <Combobox.Target withExpandedAttribute>
        <TextInput
          ref={inputRef}
          className={className}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            store.resetSelectedOption();
            if (e.currentTarget.value.trim().length >= MIN_QUERY) store.openDropdown();
            else store.closeDropdown();
          }}
          onFocus={() => q.trim().length >= MIN_QUERY && store.openDropdown()}
          onBlur={() => {
            store.closeDropdown();
            onDone?.();
          }}
          onKeyDown={onKeyDown}
          autoFocus
          placeholder="Search..."
          aria-label="Search"
          leftSection={<IconSearch size={16} />}
          rightSection={waiting && q.trim().length >= MIN_QUERY ? <Loader size={14} /> : <Kbd size="xs">/</Kbd>}
          rightSectionPointerEvents="none"
        />
      </Combobox.Target>
      <Combobox.Dropdown className={classes.searchDropdown}>
        <Combobox.Options aria-label="Search results" className={classes.searchOptions} tabIndex={0}>
          {groups.length === 0 ? (
            <Combobox.Empty>{waiting ? 'Searching…' : `No results for “${q.trim()}”`}</Combobox.Empty>
          ) : (
            groups.map((g) => (
              <Combobox.Group key={g.kind} label={SEARCH_KIND_LABELS[g.kind]}>
                {g.items.map((r) => (
                  <Combobox.Option key={searchValue(r)} value={searchValue(r)}>
                    <ResultLine r={r} />
                  </Combobox.Option>
                ))}
              </Combobox.Group>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
