// Show Up's figures in words and numbers: cents, progress, a website's label.

/** The spec's percent funded: raised / target, rounded, capped at 100, 0 when not a number. */
export function progressPercent(raised: number, target: number): number {
  const pct = Math.round((raised / target) * 100);
  return Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0;
}

/** A website as shown: without its protocol (and trailing slash). */
export function websiteLabel(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/$/, '');
}

/** Whole cents of a dollar amount with at most 2 decimals, without float error (19.99 -> 1999). */
export function toCents(amount: number): number {
  const [whole, frac = ''] = amount.toFixed(6).split('.');
  const cents = Number(whole!.replace('-', '')) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  // toFixed(6) rounds 19.989999999 up to 19.990000, so the first two decimals are the intended ones.
  return amount < 0 ? -cents : cents;
}

/** True when the amount has at most 2 decimal places (as typed: 12.5, 12.50, 12). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Math.abs(toCents(amount) - amount * 100) < 1e-6;
}
