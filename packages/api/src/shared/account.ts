import type { EmailWarmup, SendingLimit } from '../schemas/account.js';

// The sending limit and the email warm-up in words: the campaign screens and the server's refusals share them.

const count = (v: number) => new Intl.NumberFormat('en-US').format(v);

const people = (v: number) => `${count(v)} ${v === 1 ? 'person' : 'people'}`;

/** Why a church's campaigns are limited, in one sentence (the campaign screens and the refusal share it). */
export function dailyLimitReason(l: SendingLimit): string {
  return l.source === 'admin'
    ? `Your church can send to at most ${people(l.limit ?? 0)} a day, a limit set by the platform administrator.`
    : `Until your account email is verified, your church can send to at most ${people(l.limit ?? 0)} a day.`;
}

/** The refusal of a campaign that would pass the daily limit: the numbers, and how to lift it. */
export function overDailyLimitMessage(l: SendingLimit, recipients: number, what = 'This campaign'): string {
  const numbers = `${count(l.usedLast24h)} in the last 24 hours, ${count(l.remaining ?? 0)} left`;
  return l.source === 'admin'
    ? `${what} would reach ${people(recipients)}, but your church can send to at most ${people(l.limit ?? 0)} ` +
        `a day, a limit set by the platform administrator (${numbers}). Please contact the administrator to change it.`
    : `${what} would reach ${people(recipients)}, but until your account email is verified your church can ` +
        `send to at most ${people(l.limit ?? 0)} a day (${numbers}). Verify your email on the Account page to lift ` +
        'this limit.';
}

/** 'Day 2 of 7 of warming up: your church's email goes out to at most 100 addresses today (30 sent, 70 left).' */
export function emailWarmupSentence(w: EmailWarmup): string {
  return (
    `Day ${w.day} of ${w.days} of warming up: your church's email goes out to at most ${count(w.limit)} ` +
    `addresses today (${count(w.sentToday)} sent, ${count(w.remainingToday)} left).`
  );
}

/** Before a send that today's warm-up cannot take whole: how much goes today; null when it all does. */
export function emailWarmupSendSentence(w: EmailWarmup, recipients: number): string | null {
  if (recipients <= w.remainingToday) return null;
  const then = w.nextDayLimit === null ? 'when the warm-up ends' : `when up to ${count(w.nextDayLimit)} can go`;
  return `Warming up: ${count(w.remainingToday)} of these emails go out today, the rest from the next day, ${then}.`;
}
