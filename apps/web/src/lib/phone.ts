import { useCallback } from 'react';
import { formatE164, formatPhone } from '@lampstand/api/render/phone';
import { trpc } from './trpc';

/**
 * Phones as a person reads them (`formatPhone`): national format in the church's default country
 * (from its settings), international otherwise; international for all until the settings load.
 */
export function usePhoneFormatter(): (contact: { phone: string | null; phoneE164: string | null }) => string {
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 5 * 60_000 });
  const country = settings.data?.defaultCountryCode;
  return useCallback((contact) => formatPhone(contact, country), [country]);
}

/** Numbers kept in E.164 alone (a conversation's) as a person reads them, like `usePhoneFormatter`. */
export function useE164Formatter(): (e164: string | null | undefined) => string {
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 5 * 60_000 });
  const country = settings.data?.defaultCountryCode;
  return useCallback((e164) => formatE164(e164, country), [country]);
}
