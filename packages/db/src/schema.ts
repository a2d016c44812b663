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

export interface ChurchSettingsTable {
  userId: number;
  postalAddress: string | null;
  smsFromNumber: string | null;
  updatedAt: Generated<Date>;
}

export type EmailCampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'failed';

export interface EmailCampaignsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  subject: ColumnType<string, string | undefined, string>;
  content: ColumnType<string, string | undefined, string>;
  status: ColumnType<EmailCampaignStatus, EmailCampaignStatus | undefined, EmailCampaignStatus>;
  listIds: ColumnType<number[], number[] | undefined, number[]>;
  scheduledFor: Date | null;
  startedAt: Date | null;
  sentAt: Date | null;
  recipientCount: Generated<number>;
  error: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export type Channel = 'email' | 'sms';
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'delivered' | 'undelivered';

export interface DeliveriesTable {
  id: Generated<number>;
  userId: number;
  channel: Channel;
  campaignId: number;
  contactId: number | null;
  address: string;
  firstName: ColumnType<string, string | undefined, string>;
  lastName: ColumnType<string, string | undefined, string>;
  token: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: Generated<number>;
  nextAttemptAt: Date | null;
  claimedAt: Date | null;
  lastError: string | null;
  providerMessageId: string | null;
  sentAt: Date | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export type DeliveryEventType = 'open' | 'click' | 'unsubscribe' | 'bounce' | 'delivered' | 'undelivered' | 'failed';

export interface DeliveryEventsTable {
  id: Generated<number>;
  deliveryId: number;
  type: DeliveryEventType;
  url: string | null;
  at: Generated<Date>;
}

export interface OutboxMessagesTable {
  id: Generated<number>;
  userId: number | null;
  channel: Channel;
  campaignId: number | null;
  deliveryId: number | null;
  toAddress: string;
  fromAddress: string;
  subject: string | null;
  html: string | null;
  text: string | null;
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  messageId: string;
  createdAt: Generated<Date>;
}

export interface RateSlotsTable {
  bucket: string;
  second: number;
  used: Generated<number>;
}

export type SmsCampaignStatus = 'draft' | 'scheduled' | 'ready' | 'sending' | 'sent' | 'failed';

export interface SmsCampaignsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  content: ColumnType<string, string | undefined, string>;
  status: ColumnType<SmsCampaignStatus, SmsCampaignStatus | undefined, SmsCampaignStatus>;
  listIds: ColumnType<number[], number[] | undefined, number[]>;
  scheduledFor: Date | null;
  startedAt: Date | null;
  sentAt: Date | null;
  recipientCount: Generated<number>;
  error: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface SmsInboundMessagesTable {
  id: Generated<number>;
  messageSid: string;
  fromNumber: string;
  toNumber: string;
  body: string;
  keyword: string | null;
  createdAt: Generated<Date>;
}

export type TemplateType = 'email' | 'sms' | 'print' | 'landing-page';

export interface MarketingTemplatesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  category: string;
  type: TemplateType;
  thumbnail: string | null;
  content: ColumnType<Record<string, unknown>, string | undefined, string>;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface MarketingPackagesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  category: string;
  thumbnail: string | null;
  emailTemplateId: number | null;
  smsTemplateId: number | null;
  printTemplateId: number | null;
  landingPageTemplateId: number | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface UserTemplatesTable {
  id: Generated<number>;
  userId: number;
  templateId: number | null;
  packageId: number | null;
  assignedAt: Generated<Date>;
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
  churchSettings: ChurchSettingsTable;
  emailCampaigns: EmailCampaignsTable;
  deliveries: DeliveriesTable;
  deliveryEvents: DeliveryEventsTable;
  outboxMessages: OutboxMessagesTable;
  rateSlots: RateSlotsTable;
  smsCampaigns: SmsCampaignsTable;
  smsInboundMessages: SmsInboundMessagesTable;
  marketingTemplates: MarketingTemplatesTable;
  marketingPackages: MarketingPackagesTable;
  userTemplates: UserTemplatesTable;
  rateLimitBuckets: RateLimitBucketsTable;
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
    id: true,
    userId: true,
    firstName: true,
    lastName: true,
    email: true,
    phone: true,
    phoneE164: true,
    tags: true,
    metadata: true,
    dateOfBirth: true,
    emailConsent: true,
    emailConsentAt: true,
    emailConsentSource: true,
    smsConsent: true,
    smsConsentAt: true,
    smsConsentSource: true,
    createdAt: true,
    updatedAt: true,
  },
  contactConsentEvents: {
    id: true,
    userId: true,
    contactId: true,
    channel: true,
    status: true,
    source: true,
    note: true,
    at: true,
  },
  contactLists: { id: true, userId: true, name: true, description: true, type: true, createdAt: true, updatedAt: true },
  contactsInLists: { userId: true, contactId: true, listId: true, createdAt: true },
  contactFamilyLinks: {
    id: true,
    userId: true,
    contact1Id: true,
    contact2Id: true,
    relationship: true,
    createdAt: true,
  },
  childGroups: {
    id: true,
    userId: true,
    name: true,
    description: true,
    ageMin: true,
    ageMax: true,
    createdAt: true,
    updatedAt: true,
  },
  contactChildren: {
    id: true,
    userId: true,
    parentContactId: true,
    name: true,
    dateOfBirth: true,
    age: true,
    groupId: true,
    notes: true,
    createdAt: true,
    updatedAt: true,
  },
  childrenInLists: { userId: true, childId: true, listId: true, createdAt: true },
  contactImports: {
    id: true,
    userId: true,
    fileName: true,
    csv: true,
    headers: true,
    mapping: true,
    listId: true,
    status: true,
    totalRows: true,
    processedRows: true,
    createdCount: true,
    updatedCount: true,
    skipped: true,
    error: true,
    createdAt: true,
    finishedAt: true,
  },
  churchSettings: { userId: true, postalAddress: true, smsFromNumber: true, updatedAt: true },
  emailCampaigns: {
    id: true,
    userId: true,
    name: true,
    subject: true,
    content: true,
    status: true,
    listIds: true,
    scheduledFor: true,
    startedAt: true,
    sentAt: true,
    recipientCount: true,
    error: true,
    createdAt: true,
    updatedAt: true,
  },
  deliveries: {
    id: true,
    userId: true,
    channel: true,
    campaignId: true,
    contactId: true,
    address: true,
    firstName: true,
    lastName: true,
    token: true,
    status: true,
    attempts: true,
    nextAttemptAt: true,
    claimedAt: true,
    lastError: true,
    providerMessageId: true,
    sentAt: true,
    createdAt: true,
    updatedAt: true,
  },
  deliveryEvents: { id: true, deliveryId: true, type: true, url: true, at: true },
  outboxMessages: {
    id: true,
    userId: true,
    channel: true,
    campaignId: true,
    deliveryId: true,
    toAddress: true,
    fromAddress: true,
    subject: true,
    html: true,
    text: true,
    headers: true,
    messageId: true,
    createdAt: true,
  },
  rateSlots: { bucket: true, second: true, used: true },
  smsCampaigns: {
    id: true,
    userId: true,
    name: true,
    content: true,
    status: true,
    listIds: true,
    scheduledFor: true,
    startedAt: true,
    sentAt: true,
    recipientCount: true,
    error: true,
    createdAt: true,
    updatedAt: true,
  },
  smsInboundMessages: {
    id: true,
    messageSid: true,
    fromNumber: true,
    toNumber: true,
    body: true,
    keyword: true,
    createdAt: true,
  },
  marketingTemplates: {
    id: true,
    name: true,
    description: true,
    category: true,
    type: true,
    thumbnail: true,
    content: true,
    isActive: true,
    createdAt: true,
    updatedAt: true,
  },
  marketingPackages: {
    id: true,
    name: true,
    description: true,
    category: true,
    thumbnail: true,
    emailTemplateId: true,
    smsTemplateId: true,
    printTemplateId: true,
    landingPageTemplateId: true,
    isActive: true,
    createdAt: true,
    updatedAt: true,
  },
  userTemplates: { id: true, userId: true, templateId: true, packageId: true, assignedAt: true },
  rateLimitBuckets: { key: true, count: true, windowStart: true, nextAllowedAt: true },
};

/** A throttling counter (login, registration): one row per key. */
export interface RateLimitBucketsTable {
  key: string;
  count: Generated<number>;
  windowStart: Generated<Date>;
  nextAllowedAt: Generated<Date>;
}
