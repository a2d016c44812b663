import { ActionIcon, Kbd, TextInput } from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ICON_SIZE } from '../ui/theme';
import classes from './app-layout.module.css';

// The box with its dropdown (Mantine's Combobox and the search call) loads a moment after the
// shell, or at once when the box is used: the shell is on the staff app's first load.
const loadSearchBox = () => import('./search-box');
const SearchBox = lazy(() => loadSearchBox().then((m) => ({ default: m.SearchBox })));
const PRELOAD_AFTER_MS = 1500;

/**
 * The header's search. On a phone it is a button that opens the box over the header; `/` focuses
 * it anywhere but in a field. Until its dropdown has loaded, a plain box of the same look keeps
 * what is typed.
 */
export function HeaderSearch() {
  const narrow = useMediaQuery('(max-width: 36em)');
  const [opened, setOpened] = useState(false);
  const [live, setLive] = useState(false);
  const [typed, setTyped] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const t = setTimeout(() => void loadSearchBox().catch(() => undefined), PRELOAD_AFTER_MS);
    return () => clearTimeout(t);
  }, []);
  useHotkeys([
    [
      '/',
      () => {
        if (narrow) setOpened(true);
        if (live) inputRef.current?.focus();
        else setLive(true);
      },
    ],
  ]);
  if (narrow && !opened) {
    return (
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label="Search"
        onClick={() => {
          setOpened(true);
          setLive(true);
        }}
      >
        <IconSearch size={ICON_SIZE} />
      </ActionIcon>
    );
  }
  const className = narrow ? classes.searchOverlay : classes.search;
  const done = narrow
    ? () => {
        setOpened(false);
        setTyped('');
      }
    : () => setTyped('');
  const plain = (
    <TextInput
      className={className}
      value={typed}
      onChange={(e) => {
        setTyped(e.currentTarget.value);
        setLive(true);
      }}
      onFocus={() => setLive(true)}
      autoFocus={live}
      placeholder="Search..."
      aria-label="Search"
      leftSection={<IconSearch size={16} />}
      rightSection={<Kbd size="xs">/</Kbd>}
      rightSectionPointerEvents="none"
    />
  );
  if (!live) return plain;
  return (
    <Suspense fallback={plain}>
      <SearchBox inputRef={inputRef} initial={typed} className={className} onDone={done} />
    </Suspense>
  );
}
