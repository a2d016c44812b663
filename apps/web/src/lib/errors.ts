/** The spec's error text: the status code, a colon, then the server's message. */
export function errorText(err: unknown, fallback = 'Please try again later.'): string {
  const e = err as { message?: string; data?: { httpStatus?: number } | null } | null;
  if (!e || !e.message) return fallback;
  const status = e.data?.httpStatus;
  return status ? `${status}: ${e.message}` : e.message;
}

/** The server's message alone (for toasts that put it after their own words). */
export function errorMessage(err: unknown, fallback = 'Please try again later.'): string {
  const e = err as { message?: string } | null;
  return e?.message || fallback;
}

export function httpStatus(err: unknown): number | undefined {
  return (err as { data?: { httpStatus?: number } | null } | null)?.data?.httpStatus;
}
