import dayjs from 'dayjs';

/** 'Jan 5, 2025' (the spec's 'MMM d, yyyy'). */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('MMM D, YYYY') : '';
}

/** '3:05 PM' (the spec's 'h:mm a'). */
export function formatTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('h:mm A') : '';
}

const numberFormat = new Intl.NumberFormat('en-US');
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

export function formatPercent(n: number, digits = 1): string {
  return `${(Number.isFinite(n) ? n : 0).toFixed(digits)}%`;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export function formatUsd(n: number): string {
  return usd.format(n);
}
