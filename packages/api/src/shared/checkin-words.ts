/**
 * Words the server and the station share (plain constants, no zod: the station's page imports
 * them): an offline station refuses a wrong pickup code as the server does.
 */

/** Weekdays of services, 0 = Sunday. */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export const WRONG_CODE = 'That security code does not match this child: check the parent’s pickup tag';

/** A security code as the server compares it: any case, spaces ignored. */
export const normalCode = (typed: string) => typed.toUpperCase().replace(/\s/g, '');
