// The suppression list in words, before every send.

/** Before every send: '12 addresses are suppressed and will be skipped.' */
export function suppressedSentence(n: number): string {
  return n === 1
    ? '1 address is suppressed and will be skipped.'
    : `${new Intl.NumberFormat('en-US').format(n)} addresses are suppressed and will be skipped.`;
}
