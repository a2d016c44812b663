// Text as every field takes it: no control characters (other than tab and line breaks) and no lone
// surrogates (PostgreSQL refuses NUL; JSON refuses lone surrogates). Shared by the schemas and the forms.

// C0 controls except tab, line feed and carriage return; DEL; lone surrogates.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text has no control characters (other than tab and line breaks) and no lone surrogates. */
export function isCleanText(s: string): boolean {
  return !CONTROL.test(s) && !LONE_SURROGATE.test(s);
}

/** The message for text with control characters or lone surrogates. */
export const notAllowedMessage = (label: string) => `${label} contains characters that are not allowed`;

/**
 * A name as an address part: accents dropped, lower case, runs of anything but letters and digits
 * as one hyphen, none at either end, at most `max` characters ('Grace City Church!' ->
 * 'grace-city-church').
 */
export function slugOf(name: string, max: number): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
}
