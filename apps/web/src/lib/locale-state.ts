// The church's locale and first day of the week as the screens write them, set by the shell
// (ChurchLocale) once the church's settings are known: kept apart from ui/format.ts so the first
// paint does not carry the formatters.

let locale = 'en-US';
let firstDay: 0 | 1 | 6 = 0;

/** The church's locale ('en-AU') and first day of the week, set by the shell once its settings are known. */
export function setChurchLocale(next: string, firstDayOfWeek: 0 | 1 | 6 = 0): void {
  locale = next;
  firstDay = firstDayOfWeek;
}

/** The locale screens write in now: 'en-US' until the church's settings say otherwise. */
export function churchLocale(): string {
  return locale;
}

/** The church's first day of the week: 0 Sunday (the US's, until its settings say), 1 Monday, 6 Saturday. */
export function churchFirstDayOfWeek(): 0 | 1 | 6 {
  return firstDay;
}
