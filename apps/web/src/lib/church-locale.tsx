import { Center, Loader } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import type { ReactNode } from 'react';
import { setChurchLocale } from './locale-state';
import { trpc } from './trpc';

/**
 * Signed-in screens write dates, times and numbers in the church's locale: this waits for its
 * settings (a moment after the session check), sets the locale `format.ts` writes in and the first
 * day of the week of every date picker, and renders the screens. A change of country in Settings
 * renders them afresh in the new locale. Without settings (a failed load) they write as in the US.
 */
export function ChurchLocale({ children }: { children: ReactNode }) {
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 5 * 60_000, retry: 1 });
  if (settings.isLoading) {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  const locale = settings.data?.locale ?? 'en-US';
  const firstDayOfWeek = (settings.data?.firstDayOfWeek ?? 0) as 0 | 1 | 6;
  setChurchLocale(locale, firstDayOfWeek);
  return (
    <DatesProvider key={`${locale} ${firstDayOfWeek}`} settings={{ firstDayOfWeek }}>
      {children}
    </DatesProvider>
  );
}
