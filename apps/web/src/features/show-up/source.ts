import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { LSRC_PATTERN } from '@lampstand/api/schemas/show-up-values';

const KEY = 'lampstand.lsrc';

/**
 * First-party attribution: a link to our pages may carry ?lsrc=qr.12 (QR code, short link, email,
 * SMS, landing page). It is kept for this tab only (sessionStorage) and sent with the donation.
 */
export function useRememberSource() {
  const { search } = useLocation();
  useEffect(() => {
    const lsrc = new URLSearchParams(search).get('lsrc');
    if (lsrc && LSRC_PATTERN.test(lsrc)) {
      try {
        sessionStorage.setItem(KEY, lsrc);
      } catch {
        // Storage refused (private mode): the gift is simply not attributed.
      }
    }
  }, [search]);
}

export function rememberedSource(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
