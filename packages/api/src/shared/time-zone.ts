// No zod here: the web app's date helpers (on every screen's first load) import this file alone.

/** True when `zone` is an IANA time zone name this runtime knows ('Europe/London', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  if (!/^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
