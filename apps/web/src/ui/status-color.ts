/**
 * What a status says to the church, and so its colour everywhere (badges, notices, ticks): done
 * well is green, still waiting (on a person, on DNS, on a date) yellow, failed red, at work now
 * (sending, building) blue, and a state that is neither (a draft, off, not checked) grey. A status
 * badge always shows its word too: the colour is never the only sign.
 */
export type StatusKind = 'success' | 'waiting' | 'failure' | 'working' | 'neutral';

const COLORS: Record<StatusKind, string> = {
  success: 'green',
  waiting: 'yellow',
  failure: 'red',
  working: 'blue',
  neutral: 'gray',
};

export function statusColor(kind: StatusKind): string {
  return COLORS[kind];
}
