import { badRequest } from '../../errors.js';
import type { ImportSourceId, PresetField } from '../../schemas/imports.js';

/**
 * The systems a church moves in from, each known by its export's header row: which columns mean
 * what. Column names are compared without case or surrounding spaces; each field lists the names
 * the product has used for it (the first present wins).
 */

export type ImportKind = 'people' | 'gifts' | 'recurring';

export type PersonField =
  | 'externalId'
  | 'firstName'
  | 'lastName'
  | 'birthDate'
  | 'email'
  | 'phone'
  | 'householdId'
  | 'householdName'
  | 'primary'
  | 'role'
  | 'child'
  | 'emailOptIn'
  | 'smsOptIn'
  | 'address'
  | 'city'
  | 'state'
  | 'postalCode';
export type GiftField =
  | 'externalId'
  | 'personId'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'date'
  | 'fund'
  | 'amount'
  | 'method'
  | 'checkNumber';
/** A recurring-gift export's own columns (its donor, fund and amount read as a gift's). */
export type RecurringField = 'frequency' | 'lastDate' | 'nextDate' | 'status' | 'phone';
type Field = PersonField | GiftField | RecurringField;

export interface SourceDef {
  id: ImportSourceId;
  /** What the screen says was recognised. */
  label: string;
  /** The system's name: the people's external ids are kept under it, and their consent says it. */
  system: string;
  kind: ImportKind;
  /** Columns that must all be there for a header row to be this source's. */
  signature: string[];
  columns: Partial<Record<Field, string[]>>;
  /** The fund cell may split a gift between funds, 'General (50.00), Missions (25.00)' (fund-lines.ts). */
  splitFunds?: boolean;
}

const PC = 'Planning Center';
const BREEZE = 'Breeze';
const CHURCHCRM = 'ChurchCRM';
const ELVANTO = 'Elvanto';

export const SOURCES: SourceDef[] = [
  {
    id: 'planning-center-donations',
    label: 'Planning Center Giving donations export',
    system: PC,
    kind: 'gifts',
    signature: ['Donation ID', 'Amount', 'Fund'],
    columns: {
      externalId: ['Donation ID'],
      personId: ['Person ID'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      email: ['Email', 'Email Address'],
      date: ['Received At', 'Received Date', 'Date'],
      fund: ['Fund', 'Fund Name'],
      amount: ['Amount'],
      method: ['Payment Method', 'Payment Method Sub'],
      checkNumber: ['Check Number', 'Payment Check Number'],
    },
  },
  {
    id: 'breeze-contributions',
    label: 'Breeze contributions export',
    system: BREEZE,
    kind: 'gifts',
    signature: ['Payment ID', 'Date', 'Amount'],
    splitFunds: true,
    columns: {
      externalId: ['Payment ID'],
      personId: ['Person ID', 'Breeze ID'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      email: ['Email'],
      date: ['Date'],
      fund: ['Fund(s)', 'Funds', 'Fund'],
      amount: ['Amount'],
      method: ['Method', 'Method ID'],
      checkNumber: ['Check Number', 'Check #'],
    },
  },
  // Recurring gifts (before the people exports: a recurring file has a person's columns too).
  {
    id: 'planning-center-recurring',
    label: 'Planning Center Giving recurring donations export',
    system: PC,
    kind: 'recurring',
    signature: ['Recurring Donation ID', 'Amount', 'Fund'],
    columns: {
      externalId: ['Recurring Donation ID'],
      personId: ['Person ID'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      email: ['Email', 'Email Address'],
      phone: ['Phone', 'Phone Number', 'Mobile Phone Number'],
      fund: ['Fund', 'Fund Name'],
      amount: ['Amount'],
      frequency: ['Frequency', 'Schedule'],
      status: ['Status'],
      nextDate: ['Next Occurrence', 'Next Donation Date'],
      lastDate: ['Last Donation Received At', 'Last Donation Date', 'Last Received At'],
    },
  },
  {
    id: 'breeze-recurring',
    label: 'Breeze recurring contributions export',
    system: BREEZE,
    kind: 'recurring',
    signature: ['Recurring ID', 'Frequency', 'Amount'],
    columns: {
      externalId: ['Recurring ID'],
      personId: ['Person ID', 'Breeze ID'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      email: ['Email'],
      phone: ['Phone', 'Mobile'],
      fund: ['Fund', 'Fund(s)', 'Funds'],
      amount: ['Amount'],
      frequency: ['Frequency'],
      status: ['Status'],
      nextDate: ['Next Payment Date', 'Next Date'],
      lastDate: ['Last Payment Date', 'Last Contribution Date', 'Last Date'],
    },
  },
  {
    id: 'planning-center-people',
    label: 'Planning Center People export',
    system: PC,
    kind: 'people',
    signature: ['Person ID', 'First Name', 'Last Name', 'Household ID'],
    columns: {
      externalId: ['Person ID'],
      firstName: ['First Name', 'Given Name'],
      lastName: ['Last Name'],
      birthDate: ['Birthdate'],
      email: ['Home Email', 'Work Email', 'Other Email'],
      phone: ['Mobile Phone Number', 'Home Phone Number', 'Work Phone Number'],
      householdId: ['Household ID'],
      householdName: ['Household Name'],
      primary: ['Household Primary Contact'],
      child: ['Child'],
      emailOptIn: ['Email Opt In', 'Email Subscribed'],
      smsOptIn: ['SMS Opt In', 'Text Opt In'],
      address: ['Home Address Street Line 1'],
      city: ['Home Address City'],
      state: ['Home Address State'],
      postalCode: ['Home Address Zip Code'],
    },
  },
  {
    id: 'breeze-people',
    label: 'Breeze people export',
    system: BREEZE,
    kind: 'people',
    signature: ['Breeze ID', 'First Name', 'Last Name'],
    columns: {
      externalId: ['Breeze ID'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      birthDate: ['Birthdate', 'Birth Date'],
      email: ['Email'],
      phone: ['Mobile', 'Home', 'Work'],
      householdId: ['Family ID', 'Family'],
      householdName: ['Family', 'Family Name'],
      role: ['Family Role'],
      emailOptIn: ['Email Opt In', 'Email Subscribed'],
      smsOptIn: ['SMS Opt In', 'Text Opt In'],
      address: ['Street Address'],
      city: ['City'],
      state: ['State'],
      postalCode: ['Zip'],
    },
  },
  /*
   * ChurchCRM's people CSV export (Data/Reports → CSV Export Records, "individual records" format;
   * CSVCreateFile.php in ChurchCRM's source): one row per person, always starting
   * "Family ID " (with that space), "Person Id", "Last Name", then the columns ticked: Title, First
   * Name, Suffix, Middle Name, Address 1, Address 2, City, State, Zip, Country, Home Phone, Work
   * Phone, Cell Phone, Email, Work Email, Envelope Number, MembershipDate, Birth Date (year-month-day
   * without zero padding, '4-12' when the year is hidden, '-' or '0-0' when unknown), Age,
   * Classification, Family Role ('Head of Household', 'Spouse', 'Child', 'Other Relative', 'Non
   * Relative' by default), Gender, then custom fields. A person has one family there (Family ID
   * empty for none); the family's name is not in the file. No consent column: nobody is subscribed.
   */
  {
    id: 'churchcrm-people',
    label: 'ChurchCRM people export',
    system: CHURCHCRM,
    kind: 'people',
    signature: ['Family ID', 'Person Id', 'Last Name'],
    columns: {
      externalId: ['Person Id'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      birthDate: ['Birth Date'],
      email: ['Email', 'Work Email'],
      phone: ['Cell Phone', 'Home Phone', 'Work Phone'],
      householdId: ['Family ID'],
      role: ['Family Role'],
      address: ['Address 1'],
      city: ['City'],
      state: ['State'],
      postalCode: ['Zip'],
    },
  },
  /*
   * Elvanto's people export (People → Export, CSV): one row per person with the person fields of
   * Elvanto's people API under their export titles — Member ID (Elvanto's own id, which its import
   * help calls the 'Member ID'), First Name, Preferred Name, Middle Name, Last Name, Email, Phone,
   * Mobile, Gender, Birthday, Anniversary, Marital Status, Home Address, Home Address 2, Home City,
   * Home State, Home Postcode, Home Country, and, when the family fields are exported, Family ID
   * and Family Relationship (Primary Contact, Spouse, Child, Sibling, Grandfather, Grandmother,
   * Partner, Other). Written from that documentation, not checked against a live export. No
   * consent column: nobody is subscribed.
   */
  {
    id: 'elvanto-people',
    label: 'Elvanto people export',
    system: ELVANTO,
    kind: 'people',
    signature: ['Member ID', 'First Name', 'Preferred Name', 'Last Name'],
    columns: {
      externalId: ['Member ID'],
      firstName: ['First Name'],
      lastName: ['Last Name'],
      birthDate: ['Birthday'],
      email: ['Email'],
      phone: ['Mobile', 'Phone'],
      householdId: ['Family ID'],
      role: ['Family Relationship'],
      address: ['Home Address'],
      city: ['Home City'],
      state: ['Home State'],
      postalCode: ['Home Postcode'],
    },
  },
];

/** A Lampstand export ("Export everything"), moved whole into a new church (church/move-in.ts). */
export const LAMPSTAND_SOURCE = 'lampstand-export';
export const LAMPSTAND_LABEL = 'Lampstand export';

const key = (h: string) => h.trim().toLowerCase();

/** The source whose columns a header row has, or a 400 saying none does. */
export function detectSource(headers: string[], asked?: ImportSourceId): SourceDef {
  const have = new Set(headers.map(key));
  const fits = (s: SourceDef) => s.signature.every((c) => have.has(key(c)));
  if (asked) {
    const def = SOURCES.find((s) => s.id === asked);
    if (!def) throw badRequest(`Unknown source '${asked}'`, 'source');
    const missing = def.signature.filter((c) => !have.has(key(c)));
    if (missing.length) {
      throw badRequest(`This is not a ${def.label}: its header row has no column '${missing[0]}'`, 'file');
    }
    return def;
  }
  const found = SOURCES.find(fits);
  if (!found) {
    throw badRequest(
      'The header row does not match an export from Planning Center, Breeze, ChurchCRM or Elvanto; choose a saved column mapping (preset) for this file',
      'file',
    );
  }
  return found;
}

/** A generic CSV read through a church's saved mapping (field → the file's column name). */
export function presetSource(
  preset: { id: number; name: string; kind: ImportKind; mapping: Record<string, string> },
  headers: string[],
): SourceDef {
  const have = new Set(headers.map(key));
  const required: PresetField[] = preset.kind === 'people' ? ['firstName', 'lastName'] : ['date', 'fund', 'amount'];
  for (const f of required) {
    const col = preset.mapping[f];
    if (!col) throw badRequest(`The preset '${preset.name}' maps no column to ${f}`, 'preset');
    if (!have.has(key(col))) throw badRequest(`The file has no column '${col}' (preset '${preset.name}')`, 'file');
  }
  const columns: SourceDef['columns'] = {};
  for (const [field, col] of Object.entries(preset.mapping)) {
    if (col) columns[field as PersonField] = [col];
  }
  return {
    id: 'preset',
    label: `CSV read with the saved mapping '${preset.name}'`,
    system: preset.name,
    kind: preset.kind,
    signature: [],
    columns,
  };
}

/** Where each field is in this file: the column index and its name, for the fields it has. */
export interface ColumnMap {
  at: Partial<Record<Field, { index: number; name: string }[]>>;
  /** Columns no field reads: kept as notes on the person. */
  extra: { index: number; name: string }[];
}

export function columnMap(def: SourceDef, headers: string[]): ColumnMap {
  const index = new Map(headers.map((h, i) => [key(h), i] as const));
  const at: ColumnMap['at'] = {};
  const used = new Set<number>();
  for (const [field, names] of Object.entries(def.columns)) {
    const found = names.flatMap((n) => {
      const i = index.get(key(n));
      return i === undefined ? [] : [{ index: i, name: headers[i]! }];
    });
    if (found.length) at[field as Field] = found;
    for (const f of found) used.add(f.index);
  }
  const extra = headers.flatMap((name, i) => (used.has(i) ? [] : [{ index: i, name }]));
  return { at, extra };
}

/** The first non-empty cell of a field's columns, with the column it came from. */
export function cellOf(map: ColumnMap, field: Field, cells: string[]): { value: string; column: string } | null {
  for (const c of map.at[field] ?? []) {
    const v = (cells[c.index] ?? '').trim();
    if (v) return { value: v, column: c.name };
  }
  return null;
}

/**
 * The first non-empty cell of a field's columns, trimmed (`cellOf`'s value), or null: no object
 * made for it, for the rows of a large file (the column, for a problem, is `cellOf`'s).
 */
export function valueOf(map: ColumnMap, field: Field, cells: string[]): string | null {
  const columns = map.at[field];
  if (columns === undefined) return null;
  for (let i = 0; i < columns.length; i++) {
    const cell = cells[columns[i]!.index];
    if (cell === undefined) continue;
    const v = cell.trim();
    if (v) return v;
  }
  return null;
}

/** The column a field is read from first (a problem's column when the row has none of the field's cells). */
export const firstColumn = (map: ColumnMap, field: Field): string | null => map.at[field]?.[0]?.name ?? null;
