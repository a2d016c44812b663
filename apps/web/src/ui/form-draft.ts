import { useEffect, useRef, useState } from 'react';

const PREFIX = 'lampstand:draft:';

export interface StoredDraft<T> {
  values: T;
  savedAt: string;
}

function read<T>(key: string): StoredDraft<T> | null {
  try {
    const raw = window.localStorage.getItem(PREFIX + key);
    return raw ? (JSON.parse(raw) as StoredDraft<T>) : null;
  } catch {
    return null;
  }
}

/**
 * Autosave of a long form in this browser (localStorage), per user and record: the values are
 * written a second after the last change while the form is dirty. On the next visit `draft` holds
 * what was left unsaved, for the page to offer restoring it; `clear()` forgets it (after a save or
 * a deliberate discard). The browser also asks before closing the tab while the form is dirty.
 */
export function useFormDraft<T>(key: string | null, values: T, dirty: boolean) {
  const [draft, setDraft] = useState<StoredDraft<T> | null>(() => (key ? read<T>(key) : null));
  const serialized = JSON.stringify(values);
  const timer = useRef<number | undefined>(undefined);
  // The values at the last clear(): they are not written again (a discard followed by leaving the
  // page must not leave the discarded draft behind); the next change autosaves as usual.
  const clearedValues = useRef<string | null>(null);

  useEffect(() => {
    // While an earlier draft is offered, it is not overwritten until the user restores or discards it.
    if (!key || !dirty || draft || clearedValues.current === serialized) return;
    clearedValues.current = null;
    timer.current = window.setTimeout(() => {
      try {
        const stored: StoredDraft<unknown> = { values: JSON.parse(serialized), savedAt: new Date().toISOString() };
        window.localStorage.setItem(PREFIX + key, JSON.stringify(stored));
      } catch {
        // Storage full or disabled: the unload prompt below still protects the work.
      }
    }, 1000);
    return () => window.clearTimeout(timer.current);
  }, [key, dirty, draft, serialized]);

  useUnloadWarning(dirty);

  return {
    /** A draft left from an earlier visit (null once restored or discarded). */
    draft,
    dismiss: () => setDraft(null),
    clear: () => {
      window.clearTimeout(timer.current);
      clearedValues.current = serialized;
      if (key) window.localStorage.removeItem(PREFIX + key);
      setDraft(null);
    },
  };
}

/** While `dirty`, the browser asks before the tab is closed or reloaded. */
export function useUnloadWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

/** Forget every draft in this browser (on sign-out, so the next person does not see them). */
export function clearFormDrafts() {
  for (let i = window.localStorage.length - 1; i >= 0; i--) {
    const k = window.localStorage.key(i);
    if (k?.startsWith(PREFIX)) window.localStorage.removeItem(k);
  }
}
