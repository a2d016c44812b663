import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps come back as Date from pg; written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type UserRole = 'admin' | 'church';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  passwordHash: string;
  churchName: string;
  email: string;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  createdAt: Generated<Date>;
}

export interface SessionsTable {
  sid: string;
  sess: ColumnType<Record<string, unknown>, string, string>;
  expiresAt: Timestamp;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  username: string;
  ip: string;
  at: Generated<Date>;
}

export interface ImpersonationAuditTable {
  id: Generated<number>;
  adminId: number;
  targetId: number;
  action: 'start' | 'stop';
  at: Generated<Date>;
}

export interface AppSettingsTable {
  key: string;
  value: string;
  createdAt: Generated<Date>;
}

export type ConsentStatus = 'subscribed' | 'unsubscribed';
export type ContactListType = 'email' | 'sms' | 'both';
export type FamilyRelationship = 'spouse' | 'parent' | 'child' | 'sibling' | 'other';

/** Contact metadata as the spec lists it (dateOfBirth lives in its own date column). */
export interface ContactMetadata {
  countryCode?: string;
  notes?: string | null;
  isChurchMember?: boolean;
  isBaptised?: boolean;
  isSeeker?: boolean;
  isServiceStaff?: boolean;
  staffRole?: string | null;
  wwccNumber?: string | null;
  website?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  postalCode?: string | null;
}

export interface ContactsTable {
  id: Generated<number>;
  userId: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  metadata: ColumnType<ContactMetadata, string | undefined, string>;
  /** 'YYYY-MM-DD' */
  dateOfBirth: string | null;
  emailConsent: ColumnType<ConsentStatus, ConsentStatus | undefined, ConsentStatus>;
  emailConsentAt: Date | null;
  emailConsentSource: string | null;
  smsConsent: ColumnType<ConsentStatus, ConsentStatus | undefined, ConsentStatus>;
  smsConsentAt: Date | null;
  smsConsentSource: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ContactConsentEventsTable {
  id: Generated<number>;
  userId: number;
  contactId: number;
  channel: 'email' | 'sms';
  status: ConsentStatus;
  source: string;
  note: string | null;
  at: Generated<Date>;
}

export interface ContactListsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  description: string | null;
  type: ColumnType<ContactListType, ContactListType | undefined, ContactListType>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ContactsInListsTable {
  userId: number;
  contactId: number;
  listId: number;
  createdAt: Generated<Date>;
}

export interface ContactFamilyLinksTable {
  id: Generated<number>;
  userId: number;
  contact1Id: number;
  contact2Id: number;
  relationship: FamilyRelationship;
  createdAt: Generated<Date>;
}

export interface ChildGroupsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  description: string | null;
  ageMin: number | null;
  ageMax: number | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ContactChildrenTable {
  id: Generated<number>;
  userId: number;
  parentContactId: number;
  name: string;
  dateOfBirth: string | null;
  age: number | null;
  groupId: number | null;
  notes: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ChildrenInListsTable {
  userId: number;
  childId: number;
  listId: number;
  createdAt: Generated<Date>;
}

export interface ImportSkip {
  line: number;
  reason: string;
}

export interface ContactImportsTable {
  id: Generated<number>;
  userId: number;
  fileName: string;
  csv: string;
  headers: ColumnType<string[], string, string>;
  mapping: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  listId: number | null;
  status: ColumnType<'uploaded' | 'queued' | 'running' | 'completed' | 'failed', string | undefined, string>;
  totalRows: Generated<number>;
  processedRows: Generated<number>;
  createdCount: Generated<number>;
  updatedCount: Generated<number>;
  skipped: ColumnType<ImportSkip[], string | undefined, string>;
  error: string | null;
  createdAt: Generated<Date>;
  finishedAt: Date | null;
}

export interface Database {
  users: UsersTable;
  appSettings: AppSettingsTable;
  sessions: SessionsTable;
  loginFailures: LoginFailuresTable;
  impersonationAudit: ImpersonationAuditTable;
  contacts: ContactsTable;
  contactConsentEvents: ContactConsentEventsTable;
  contactLists: ContactListsTable;
  contactsInLists: ContactsInListsTable;
  contactFamilyLinks: ContactFamilyLinksTable;
  childGroups: ChildGroupsTable;
  contactChildren: ContactChildrenTable;
  childrenInLists: ChildrenInListsTable;
  contactImports: ContactImportsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

/**
 * The columns of every table, checked against `Database` by the compiler (every key present,
 * none extra) and against the migrated database by `schema.test.ts`.
 */
type Columns = { [T in keyof Database]: { [C in keyof Database[T]]-?: true } };
export const schemaColumns: Columns = {
  users: { id: true, username: true, passwordHash: true, churchName: true, email: true, role: true, createdAt: true },
  appSettings: { key: true, value: true, createdAt: true },
  sessions: { sid: true, sess: true, expiresAt: true },
  loginFailures: { id: true, username: true, ip: true, at: true },
  impersonationAudit: { id: true, adminId: true, targetId: true, action: true, at: true },
  contacts: {
    id: true, userId: true, firstName: true, lastName: true, email: true, phone: true, phoneE164: true, tags: true,
    metadata: true, dateOfBirth: true, emailConsent: true, emailConsentAt: true, emailConsentSource: true,
    smsConsent: true, smsConsentAt: true, smsConsentSource: true, createdAt: true, updatedAt: true,
  },
  contactConsentEvents: { id: true, userId: true, contactId: true, channel: true, status: true, source: true, note: true, at: true },
  contactLists: { id: true, userId: true, name: true, description: true, type: true, createdAt: true, updatedAt: true },
  contactsInLists: { userId: true, contactId: true, listId: true, createdAt: true },
  contactFamilyLinks: { id: true, userId: true, contact1Id: true, contact2Id: true, relationship: true, createdAt: true },
  childGroups: { id: true, userId: true, name: true, description: true, ageMin: true, ageMax: true, createdAt: true, updatedAt: true },
  contactChildren: {
    id: true, userId: true, parentContactId: true, name: true, dateOfBirth: true, age: true, groupId: true, notes: true,
    createdAt: true, updatedAt: true,
  },
  childrenInLists: { userId: true, childId: true, listId: true, createdAt: true },
  contactImports: {
    id: true, userId: true, fileName: true, csv: true, headers: true, mapping: true, listId: true, status: true,
    totalRows: true, processedRows: true, createdCount: true, updatedCount: true, skipped: true, error: true,
    createdAt: true, finishedAt: true,
  },
};
