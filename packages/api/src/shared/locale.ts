import { COUNTRY_ROWS, MAIN_COUNTRY_OF_CALLING_CODE } from './country-data.js';

// A church's country ('US', 'AU') and what follows from it: the calling code a phone without one is
// read in, the locale its dates, times and money are written in, and the first day of its week.
// The country is chosen at registration from the time zone (or the browser's language) and can be
// changed in Settings. Shared by the server's renderers and the web app.

/** What a church without a country reads as (the spec's formats are the US ones). */
export const DEFAULT_COUNTRY = 'US';

interface CountryRow {
  callingCode: string;
  zones: string[];
}

let rows: Map<string, CountryRow> | undefined;
let zoneToCountry: Map<string, string> | undefined;

function table(): Map<string, CountryRow> {
  if (!rows) {
    rows = new Map();
    zoneToCountry = new Map();
    for (const row of COUNTRY_ROWS) {
      const [code, callingCode, ...zones] = row.split(' ') as [string, string, ...string[]];
      rows.set(code, { callingCode, zones });
      for (const zone of zones) zoneToCountry.set(zone, code);
    }
  }
  return rows;
}

/** True for an ISO 3166 code of a country with a telephone calling code ('AU', 'US'). */
export function isCountry(code: string): boolean {
  return table().has(code);
}

/** Every country code, for the schema that checks a church's country. */
export const COUNTRY_CODES_ISO: readonly string[] = COUNTRY_ROWS.map((r) => r.slice(0, 2));

/** The country an IANA time zone lies in ('America/Chicago' → 'US'); undefined for UTC and the like. */
export function countryFromTimeZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  table();
  return zoneToCountry!.get(zone);
}

/** A church's country: the one it chose, else its time zone's; null when neither says. */
export function effectiveCountry(
  row: { country?: string | null; timeZone?: string | null } | undefined,
): string | null {
  return row?.country ?? countryFromTimeZone(row?.timeZone) ?? null;
}

/** The first country named by a browser's languages ('en-AU' → 'AU'); a bare 'en' names none. */
export function countryFromLanguages(languages: readonly string[] | undefined): string | undefined {
  for (const tag of languages ?? []) {
    try {
      const region = new Intl.Locale(tag).region;
      if (region && isCountry(region)) return region;
    } catch {
      // Not a language tag: try the next one.
    }
  }
  return undefined;
}

/** The country a new church starts with: its time zone's, else its browser's language's, else the US. */
export function guessCountry(from: { timeZone?: string | null; languages?: readonly string[] }): string {
  return countryFromTimeZone(from.timeZone) ?? countryFromLanguages(from.languages) ?? DEFAULT_COUNTRY;
}

/** '+61' for 'AU'; the US's '+1' for an unknown country. */
export function callingCodeOf(country: string): string {
  return `+${(table().get(country) ?? table().get(DEFAULT_COUNTRY)!).callingCode}`;
}

/**
 * The country a calling code names ('+44' → 'GB'): the church's own when it shares the code
 * ('+1' in a Canadian church is Canada), else the code's main country.
 */
export function countryOfCallingCode(code: string, prefer?: string): string | undefined {
  const digits = code.replace(/^\+/, '');
  if (prefer && table().get(prefer)?.callingCode === digits) return prefer;
  const main = MAIN_COUNTRY_OF_CALLING_CODE[digits];
  if (main) return main;
  for (const [cc, row] of table()) if (row.callingCode === digits) return cc;
  return undefined;
}

/** Every calling code, once each ('+1', '+7', '+20', …). */
export const CALLING_CODES: readonly string[] = [...new Set(COUNTRY_ROWS.map((r) => `+${r.split(' ')[1]}`))];

let names: Intl.DisplayNames | undefined;
/** 'Australia' for 'AU' (in English). */
export function countryName(code: string): string {
  names ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  return names.of(code) ?? code;
}

/** Every country as a choice: 'Australia (+61)', by name. */
export function countryOptions(): { value: string; label: string }[] {
  return [...table()]
    .map(([code, row]) => ({ value: code, label: `${countryName(code)} (+${row.callingCode})` }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

/**
 * Every calling code as a choice for a contact's phone: '+61 Australia', '+1 United States and 24
 * more'; the church's own country names its code ('+1 Canada' in a Canadian church). By name.
 */
export function callingCodeOptions(churchCountry?: string): { value: string; label: string }[] {
  const counts = new Map<string, number>();
  for (const row of table().values()) counts.set(row.callingCode, (counts.get(row.callingCode) ?? 0) + 1);
  return CALLING_CODES.map((code) => {
    const country = countryOfCallingCode(code, churchCountry)!;
    const more = counts.get(code.slice(1))! - 1;
    return { value: code, label: `${code} ${countryName(country)}${more > 0 ? ` and ${more} more` : ''}` };
  }).sort((a, b) => a.label.slice(a.label.indexOf(' ')).localeCompare(b.label.slice(b.label.indexOf(' ')), 'en'));
}

const localeCache = new Map<string, string>();
/**
 * The locale a church's English is written in: 'en-US', 'en-AU', 'en-GB', … where the runtime
 * knows English for that country; otherwise international English ('en-001', day first) with the
 * country's own clock (24-hour in Brazil: the hour cycle of the country's main language).
 */
export function churchLocale(country: string | null | undefined): string {
  const cc = country && isCountry(country) ? country : DEFAULT_COUNTRY;
  let locale = localeCache.get(cc);
  if (!locale) {
    const own = `en-${cc}`;
    if (new Intl.DateTimeFormat(own).resolvedOptions().locale === own) locale = own;
    else {
      let cycle: string | undefined;
      try {
        const main = new Intl.Locale('und', { region: cc }).maximize().toString();
        cycle = new Intl.DateTimeFormat(main, { hour: 'numeric' }).resolvedOptions().hourCycle;
      } catch {
        cycle = undefined;
      }
      locale = cycle === 'h23' || cycle === 'h24' ? 'en-001-u-hc-h23' : 'en-001';
    }
    localeCache.set(cc, locale);
  }
  return locale;
}

// Where the week starts, as the Unicode CLDR's week data says (Monday elsewhere). Kept here because
// not every runtime has Intl.Locale's week information yet.
const SUNDAY_FIRST = new Set(
  (
    'AG AS BD BR BS BT BW BZ CA CN CO DM DO ET GT GU HK HN ID IL IN JM JP KE KH KR LA MH MM MO MT MX MZ ' +
    'NI NP PA PE PH PK PR PT PY SA SG SV TH TT TW UM US VE VI WS YE ZA ZW'
  ).split(' '),
);
const SATURDAY_FIRST = new Set('AE AF BH DJ DZ EG IQ IR JO KW LY OM QA SD SY'.split(' '));

/** The first day of the church's week: 0 Sunday, 1 Monday, 6 Saturday (as date pickers count). */
export function firstDayOfWeek(country: string | null | undefined): 0 | 1 | 6 {
  const cc = country ?? DEFAULT_COUNTRY;
  return SUNDAY_FIRST.has(cc) ? 0 : SATURDAY_FIRST.has(cc) ? 6 : 1;
}
