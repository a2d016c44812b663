import type { ColumnType, Generated, Selectable } from 'kysely';

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
  /** When the account email was verified (null: not yet; changing the email resets it). */
  emailVerifiedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** An administrator's daily recipient limit for this church; null: the default rule. */
  dailyRecipientLimit: ColumnType<number | null, number | null | undefined, number | null>;
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

/** Contacts removed (deleted or merged away) per church and day; written by a trigger (0051). */
export interface ContactRemovalsDailyTable {
  userId: number;
  day: ColumnType<string, string, string>;
  removed: Generated<number>;
}

/** One merge of two contacts: the kept one, and a snapshot of the one merged into it (deleted). */
export interface ContactMergesTable {
  id: Generated<number>;
  userId: number;
  keptContactId: number | null;
  mergedContactId: number;
  mergedContact: ColumnType<Record<string, unknown>, string, string>;
  moved: ColumnType<Record<string, number>, string, string>;
  mergedBy: string;
  createdAt: Generated<Date>;
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
  /** When it was queued or last committed a batch (a stale one no longer counts as running). */
  progressAt: Date | null;
}

export interface ChurchSettingsTable {
  userId: number;
  postalAddress: string | null;
  smsFromNumber: string | null;
  /** IANA time zone ('America/Chicago'); campaign times are shown in it. */
  timeZone: Generated<string>;
  /** The country code ('+61') a phone typed without one is read in (import, sign-ups, API, merge). */
  defaultCountryCode: Generated<string>;
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
/** What a delivery belongs to: a campaign, or a planner's request to serve (issue 24 §15). */
export type DeliveryKind = 'campaign' | 'planner-request';
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'delivered' | 'undelivered';

export interface DeliveriesTable {
  id: Generated<number>;
  userId: number;
  channel: Channel;
  kind: ColumnType<DeliveryKind, DeliveryKind | undefined, DeliveryKind>;
  /** Set for kind 'campaign' only. */
  campaignId: number | null;
  /** Set for kind 'planner-request' only: the plan and the assignment asked about. */
  servicePlanId: number | null;
  assignmentId: number | null;
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

export type ServicePlanStatus = 'draft' | 'published' | 'completed';
export type AssignmentStatus = 'scheduled' | 'confirmed' | 'declined';

export interface ServiceItemTypesTable {
  id: Generated<number>;
  userId: number;
  name: string;
  color: ColumnType<string, string | undefined, string>;
  icon: ColumnType<string, string | undefined, string>;
  description: string | null;
  isDefault: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Generated<Date>;
}

export interface ServicePlansTable {
  id: Generated<number>;
  userId: number;
  title: string;
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM' */
  startTime: string | null;
  endTime: string | null;
  location: string | null;
  description: string | null;
  status: ColumnType<ServicePlanStatus, ServicePlanStatus | undefined, ServicePlanStatus>;
  theme: string | null;
  notes: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

/** A dated destination of a QR code: ISO times, either end open. */
export interface QrScheduleEntry {
  url: string;
  startsAt: string | null;
  endsAt: string | null;
}

export interface QrCodesTable {
  id: Generated<number>;
  userId: number;
  name: string;
  url: string;
  isShortUrl: ColumnType<boolean, boolean | undefined, boolean>;
  shortCode: string | null;
  foregroundColor: ColumnType<string, string | undefined, string>;
  backgroundColor: ColumnType<string, string | undefined, string>;
  cornerSquareColor: string | null;
  cornerDotColor: string | null;
  size: ColumnType<number, number | undefined, number>;
  errorCorrection: ColumnType<QrErrorCorrection, QrErrorCorrection | undefined, QrErrorCorrection>;
  margin: ColumnType<number, number | undefined, number>;
  logoUrl: string | null;
  logoUploadId: number | null;
  lightOnDarkConfirmed: ColumnType<boolean, boolean | undefined, boolean>;
  design: ColumnType<Record<string, unknown>, string | undefined, string>;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  schedule: ColumnType<QrScheduleEntry[], string | undefined, string>;
  scans: Generated<number>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ServiceItemsTable {
  id: Generated<number>;
  userId: number;
  servicePlanId: number;
  serviceItemTypeId: number | null;
  title: string;
  description: string | null;
  duration: ColumnType<number, number | undefined, number>;
  notes: string | null;
  position: number;
  content: ColumnType<Record<string, unknown>, string | undefined, string>;
  startTime: string | null;
  isRehearsalNeeded: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface SongsTable {
  id: Generated<number>;
  userId: number;
  title: string;
  artist: string | null;
  lyrics: string | null;
  chords: string | null;
  keySignature: string | null;
  tempo: number | null;
  timeSignature: string | null;
  ccliNumber: string | null;
  notes: string | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  audioUrl: string | null;
  attachments: ColumnType<unknown[], string | undefined, string>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ServicePlanSongsTable {
  id: Generated<number>;
  userId: number;
  servicePlanId: number;
  serviceItemId: number;
  songId: number;
  keySignature: string | null;
  notes: string | null;
  arrangement: string | null;
}

export interface TeamPositionsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  description: string | null;
  category: string | null;
  createdAt: Generated<Date>;
}

export interface TeamMembersTable {
  id: Generated<number>;
  userId: number;
  contactId: number | null;
  name: string;
  email: string | null;
  phone: string | null;
  notes: string | null;
  isActive: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface TeamMemberPositionsTable {
  teamMemberId: number;
  positionId: number;
}

export interface TeamMemberBlockoutsTable {
  id: Generated<number>;
  userId: number;
  teamMemberId: number;
  /** 'YYYY-MM-DD' */
  startsOn: string;
  endsOn: string;
  reason: string | null;
}

export interface ServicePlanAssignmentsTable {
  id: Generated<number>;
  userId: number;
  servicePlanId: number;
  serviceItemId: number | null;
  positionId: number | null;
  teamMemberId: number;
  status: ColumnType<AssignmentStatus, AssignmentStatus | undefined, AssignmentStatus>;
  notes: string | null;
  token: string;
  requestedAt: Date | null;
  respondedAt: Date | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ServicePlanAnnouncementsTable {
  id: Generated<number>;
  userId: number;
  servicePlanId: number;
  kind: string;
  targetId: number;
  createdAt: Generated<Date>;
}

export interface QrCodeScansTable {
  id: Generated<number>;
  userId: number;
  qrCodeId: number;
  scannedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  source: 'qr' | 'link';
  device: 'mobile' | 'tablet' | 'desktop' | 'other';
  referrerHost: string | null;
}

export interface Database {
  users: UsersTable;
  appSettings: AppSettingsTable;
  sessions: SessionsTable;
  loginFailures: LoginFailuresTable;
  impersonationAudit: ImpersonationAuditTable;
  contacts: ContactsTable;
  contactConsentEvents: ContactConsentEventsTable;
  contactMerges: ContactMergesTable;
  contactRemovalsDaily: ContactRemovalsDailyTable;
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
  serviceItemTypes: ServiceItemTypesTable;
  servicePlans: ServicePlansTable;
  serviceItems: ServiceItemsTable;
  songs: SongsTable;
  servicePlanSongs: ServicePlanSongsTable;
  teamPositions: TeamPositionsTable;
  teamMembers: TeamMembersTable;
  teamMemberPositions: TeamMemberPositionsTable;
  teamMemberBlockouts: TeamMemberBlockoutsTable;
  servicePlanAssignments: ServicePlanAssignmentsTable;
  servicePlanAnnouncements: ServicePlanAnnouncementsTable;
  uploads: UploadsTable;
  socialPosts: SocialPostsTable;
  socialSettings: SocialSettingsTable;
  landingPages: LandingPagesTable;
  landingPageVisits: LandingPageVisitsTable;
  landingPageSignups: LandingPageSignupsTable;
  aiGenerations: AiGenerationsTable;
  qrCodes: QrCodesTable;
  qrCodeScans: QrCodeScansTable;
  showUpProjects: ShowUpProjectsTable;
  showUpUpdates: ShowUpUpdatesTable;
  showUpDonations: ShowUpDonationsTable;
  stripeWebhookEvents: StripeWebhookEventsTable;
  churchStripeAccounts: ChurchStripeAccountsTable;
  rateLimitBuckets: RateLimitBucketsTable;
  apiKeys: ApiKeysTable;
  emailVerificationTokens: EmailVerificationTokensTable;
  campaignRecipientUsage: CampaignRecipientUsageTable;
}

export type User = Selectable<UsersTable>;

/**
 * The columns of every table, checked against `Database` by the compiler (every key present,
 * none extra) and against the migrated database by `schema.test.ts`.
 */
type Columns = { [T in keyof Database]: { [C in keyof Database[T]]-?: true } };
export const schemaColumns: Columns = {
  users: {
    id: true,
    username: true,
    passwordHash: true,
    churchName: true,
    email: true,
    role: true,
    createdAt: true,
    emailVerifiedAt: true,
    dailyRecipientLimit: true,
  },
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
  contactMerges: {
    id: true,
    userId: true,
    keptContactId: true,
    mergedContactId: true,
    mergedContact: true,
    moved: true,
    mergedBy: true,
    createdAt: true,
  },
  contactRemovalsDaily: { userId: true, day: true, removed: true },
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
    progressAt: true,
  },
  churchSettings: {
    userId: true,
    postalAddress: true,
    smsFromNumber: true,
    timeZone: true,
    defaultCountryCode: true,
    updatedAt: true,
  },
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
    kind: true,
    campaignId: true,
    servicePlanId: true,
    assignmentId: true,
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
  serviceItemTypes: {
    id: true,
    userId: true,
    name: true,
    color: true,
    icon: true,
    description: true,
    isDefault: true,
    createdAt: true,
  },
  servicePlans: {
    id: true,
    userId: true,
    title: true,
    date: true,
    startTime: true,
    endTime: true,
    location: true,
    description: true,
    status: true,
    theme: true,
    notes: true,
    createdAt: true,
    updatedAt: true,
  },
  serviceItems: {
    id: true,
    userId: true,
    servicePlanId: true,
    serviceItemTypeId: true,
    title: true,
    description: true,
    duration: true,
    notes: true,
    position: true,
    content: true,
    startTime: true,
    isRehearsalNeeded: true,
    createdAt: true,
    updatedAt: true,
  },
  songs: {
    id: true,
    userId: true,
    title: true,
    artist: true,
    lyrics: true,
    chords: true,
    keySignature: true,
    tempo: true,
    timeSignature: true,
    ccliNumber: true,
    notes: true,
    tags: true,
    audioUrl: true,
    attachments: true,
    createdAt: true,
    updatedAt: true,
  },
  servicePlanSongs: {
    id: true,
    userId: true,
    servicePlanId: true,
    serviceItemId: true,
    songId: true,
    keySignature: true,
    notes: true,
    arrangement: true,
  },
  teamPositions: { id: true, userId: true, name: true, description: true, category: true, createdAt: true },
  teamMembers: {
    id: true,
    userId: true,
    contactId: true,
    name: true,
    email: true,
    phone: true,
    notes: true,
    isActive: true,
    createdAt: true,
    updatedAt: true,
  },
  teamMemberPositions: { teamMemberId: true, positionId: true },
  teamMemberBlockouts: { id: true, userId: true, teamMemberId: true, startsOn: true, endsOn: true, reason: true },
  servicePlanAssignments: {
    id: true,
    userId: true,
    servicePlanId: true,
    serviceItemId: true,
    positionId: true,
    teamMemberId: true,
    status: true,
    notes: true,
    token: true,
    requestedAt: true,
    respondedAt: true,
    createdAt: true,
    updatedAt: true,
  },
  servicePlanAnnouncements: {
    id: true,
    userId: true,
    servicePlanId: true,
    kind: true,
    targetId: true,
    createdAt: true,
  },
  uploads: {
    id: true,
    userId: true,
    storageKey: true,
    thumbnailKey: true,
    url: true,
    thumbnailUrl: true,
    contentType: true,
    width: true,
    height: true,
    bytes: true,
    createdAt: true,
  },
  socialPosts: {
    id: true,
    userId: true,
    content: true,
    scheduledFor: true,
    platforms: true,
    status: true,
    imageUrl: true,
    linkUrl: true,
    tags: true,
    postedAt: true,
    publishAttempts: true,
    publishNextAttemptAt: true,
    publishClaimedAt: true,
    publishError: true,
    publishResponseId: true,
    publishJobId: true,
    createdAt: true,
    updatedAt: true,
  },
  socialSettings: {
    userId: true,
    webhookUrl: true,
    webhookSecret: true,
    feedToken: true,
    createdAt: true,
    updatedAt: true,
  },
  landingPages: {
    id: true,
    userId: true,
    name: true,
    slug: true,
    published: true,
    publishedAt: true,
    content: true,
    createdAt: true,
    updatedAt: true,
  },
  landingPageVisits: {
    id: true,
    userId: true,
    pageId: true,
    day: true,
    visitorHash: true,
    sourceKind: true,
    sourceValue: true,
    createdAt: true,
  },
  landingPageSignups: {
    id: true,
    userId: true,
    pageId: true,
    blockId: true,
    contactId: true,
    listId: true,
    name: true,
    email: true,
    phone: true,
    city: true,
    postalCode: true,
    sourceKind: true,
    sourceValue: true,
    visitorHash: true,
    confirmTokenHash: true,
    confirmedAt: true,
    createdAt: true,
  },
  aiGenerations: {
    id: true,
    userId: true,
    kind: true,
    model: true,
    ok: true,
    promptTokens: true,
    completionTokens: true,
    createdAt: true,
  },
  qrCodes: {
    id: true,
    userId: true,
    name: true,
    url: true,
    isShortUrl: true,
    shortCode: true,
    foregroundColor: true,
    backgroundColor: true,
    cornerSquareColor: true,
    cornerDotColor: true,
    size: true,
    errorCorrection: true,
    margin: true,
    logoUrl: true,
    logoUploadId: true,
    lightOnDarkConfirmed: true,
    design: true,
    utmSource: true,
    utmMedium: true,
    utmCampaign: true,
    schedule: true,
    scans: true,
    createdAt: true,
    updatedAt: true,
  },
  qrCodeScans: {
    id: true,
    userId: true,
    qrCodeId: true,
    scannedAt: true,
    source: true,
    device: true,
    referrerHost: true,
  },
  showUpProjects: {
    id: true,
    userId: true,
    title: true,
    shortDescription: true,
    description: true,
    location: true,
    latitude: true,
    longitude: true,
    targetAmount: true,
    raisedAmount: true,
    donationsCount: true,
    status: true,
    category: true,
    tags: true,
    coverImage: true,
    coverThumbnailUrl: true,
    coverUploadId: true,
    images: true,
    startDate: true,
    endDate: true,
    organizationName: true,
    contactEmail: true,
    contactPhone: true,
    website: true,
    createdAt: true,
    updatedAt: true,
  },
  showUpUpdates: { id: true, userId: true, projectId: true, title: true, content: true, images: true, createdAt: true },
  showUpDonations: {
    id: true,
    userId: true,
    projectId: true,
    amount: true,
    amountCents: true,
    currency: true,
    donorName: true,
    donorEmail: true,
    isAnonymous: true,
    message: true,
    showMessage: true,
    status: true,
    failureReason: true,
    stripePaymentId: true,
    stripeClientSecret: true,
    stripeCustomerId: true,
    stripeAccountId: true,
    platformFeeCents: true,
    idempotencyKey: true,
    isDemo: true,
    sourceKind: true,
    sourceId: true,
    receiptToken: true,
    receiptUrl: true,
    receiptSentAt: true,
    completedAt: true,
    refundedAt: true,
    createdAt: true,
    updatedAt: true,
  },
  stripeWebhookEvents: { eventId: true, type: true, paymentIntentId: true, outcome: true, receivedAt: true },
  churchStripeAccounts: {
    userId: true,
    stripeAccountId: true,
    chargesEnabled: true,
    detailsSubmitted: true,
    createdAt: true,
    updatedAt: true,
  },
  rateLimitBuckets: { key: true, count: true, windowStart: true, nextAllowedAt: true },
  apiKeys: {
    id: true,
    userId: true,
    name: true,
    tokenHash: true,
    tokenPrefix: true,
    createdAt: true,
    lastUsedAt: true,
    revokedAt: true,
    createdByUserId: true,
  },
  emailVerificationTokens: {
    id: true,
    userId: true,
    email: true,
    tokenHash: true,
    expiresAt: true,
    usedAt: true,
    createdAt: true,
  },
  campaignRecipientUsage: {
    id: true,
    userId: true,
    channel: true,
    kind: true,
    campaignId: true,
    recipients: true,
    createdAt: true,
  },
};

/** An uploaded image (re-encoded to WebP): the large variant and its thumbnail. */
export interface UploadsTable {
  id: Generated<number>;
  userId: number;
  storageKey: string;
  thumbnailKey: string;
  url: string;
  thumbnailUrl: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: Generated<Date>;
}

export type SocialPostStatus = 'scheduled' | 'posted' | 'failed' | 'draft';

export interface SocialPostsTable {
  id: Generated<number>;
  userId: number;
  content: string;
  scheduledFor: Date;
  platforms: ColumnType<string[], string[] | undefined, string[]>;
  status: ColumnType<SocialPostStatus, SocialPostStatus | undefined, SocialPostStatus>;
  imageUrl: string | null;
  linkUrl: string | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  postedAt: Date | null;
  publishAttempts: Generated<number>;
  publishNextAttemptAt: Date | null;
  publishClaimedAt: Date | null;
  publishError: string | null;
  publishResponseId: string | null;
  /** The pg-boss job that publishes the post at its time (cancelled when it is moved or deleted). */
  publishJobId: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

/** An image on a Show Up row: the uploads service's id when known, its large and thumbnail URLs. */
export interface ShowUpImage {
  id: number | null;
  url: string;
  thumbnailUrl: string | null;
}

export interface ShowUpProjectsTable {
  id: Generated<number>;
  userId: number;
  title: string;
  shortDescription: string;
  description: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  targetAmount: number;
  raisedAmount: Generated<number>;
  donationsCount: Generated<number>;
  status: Generated<string>;
  category: Generated<string>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  coverImage: string | null;
  coverThumbnailUrl: string | null;
  coverUploadId: number | null;
  images: ColumnType<ShowUpImage[], string | undefined, string>;
  startDate: ColumnType<string, string | undefined, string>;
  endDate: string | null;
  organizationName: string;
  contactEmail: string;
  contactPhone: string | null;
  website: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface LandingPagesTable {
  id: Generated<number>;
  userId: number;
  name: string;
  slug: string;
  published: ColumnType<boolean, boolean | undefined, boolean>;
  publishedAt: Date | null;
  /** The spec's content object and the builder's blocks (validated by landingPageContentSchema). */
  content: ColumnType<Record<string, unknown>, string | undefined, string>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface ShowUpUpdatesTable {
  id: Generated<number>;
  userId: number;
  projectId: number;
  title: string;
  content: string;
  images: ColumnType<ShowUpImage[], string | undefined, string>;
  createdAt: Generated<Date>;
}

export type DonationStatus = 'pending' | 'completed' | 'failed' | 'refunded';
export type DonationSourceKind = 'qr' | 'link' | 'email' | 'sms' | 'page';

export interface ShowUpDonationsTable {
  id: Generated<number>;
  userId: number;
  projectId: number;
  amount: number;
  amountCents: number;
  currency: Generated<string>;
  donorName: string | null;
  donorEmail: string | null;
  isAnonymous: Generated<boolean>;
  message: string | null;
  /** The donor allowed the message on the public project page (staff always see it). */
  showMessage: Generated<boolean>;
  status: ColumnType<DonationStatus, DonationStatus | undefined, DonationStatus>;
  failureReason: string | null;
  stripePaymentId: string | null;
  stripeClientSecret: string | null;
  stripeCustomerId: string | null;
  stripeAccountId: string | null;
  platformFeeCents: Generated<number>;
  idempotencyKey: string;
  isDemo: Generated<boolean>;
  sourceKind: DonationSourceKind | null;
  sourceId: number | null;
  receiptToken: string;
  receiptUrl: string | null;
  receiptSentAt: Date | null;
  completedAt: Date | null;
  refundedAt: Date | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface SocialSettingsTable {
  userId: number;
  webhookUrl: string | null;
  webhookSecret: string | null;
  feedToken: string | null;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

/** Where a visit or a sign-up came from: our own `lsrc` (qr, link, email, sms), UTM, the referrer, or none. */
export type VisitSourceKind = 'qr' | 'link' | 'email' | 'sms' | 'utm' | 'referrer' | 'direct';

export interface LandingPageVisitsTable {
  /** bigserial, parsed as a number. */
  id: Generated<number>;
  userId: number;
  pageId: number;
  /** 'YYYY-MM-DD' (UTC) */
  day: ColumnType<string, string, string>;
  visitorHash: string;
  sourceKind: VisitSourceKind;
  sourceValue: string | null;
  createdAt: Generated<Date>;
}

export interface LandingPageSignupsTable {
  id: Generated<number>;
  userId: number;
  pageId: number;
  blockId: string;
  contactId: number | null;
  listId: number | null;
  name: string;
  email: string;
  /** What the visitor typed; applied to the contact only where its field was empty, or by staff. */
  phone: string | null;
  city: string | null;
  postalCode: string | null;
  sourceKind: VisitSourceKind;
  sourceValue: string | null;
  visitorHash: string;
  confirmTokenHash: string;
  confirmedAt: Date | null;
  createdAt: Generated<Date>;
}

export interface AiGenerationsTable {
  id: Generated<number>;
  userId: number;
  kind: string;
  model: string;
  ok: boolean;
  promptTokens: ColumnType<number, number | undefined, number>;
  completionTokens: ColumnType<number, number | undefined, number>;
  createdAt: Generated<Date>;
}

export interface StripeWebhookEventsTable {
  eventId: string;
  type: string;
  paymentIntentId: string | null;
  outcome: string;
  receivedAt: Generated<Date>;
}

export interface ChurchStripeAccountsTable {
  userId: number;
  stripeAccountId: string;
  chargesEnabled: Generated<boolean>;
  detailsSubmitted: Generated<boolean>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

/** A throttling counter (login, registration): one row per key. */
export interface RateLimitBucketsTable {
  key: string;
  count: Generated<number>;
  windowStart: Generated<Date>;
  nextAllowedAt: Generated<Date>;
}

/** An integrator's API key (issue 12 §9): the token itself is never stored, only its SHA-256. */
export interface ApiKeysTable {
  id: Generated<number>;
  userId: number;
  name: string;
  tokenHash: string;
  /** The first characters of the token, shown in Settings to tell keys apart. */
  tokenPrefix: string;
  createdAt: Generated<Date>;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** The account that made the key (null: made before this was recorded, or that account is gone). */
  createdByUserId: number | null;
}

/** A link that verifies an account email (issue 12 §13): single use, stored as its SHA-256. */
export interface EmailVerificationTokensTable {
  id: Generated<number>;
  userId: number;
  /** The address the link was sent to: a link for a former address verifies nothing. */
  email: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Generated<Date>;
}

/** How many recipients each campaign start enqueued: the daily limit sums the last 24 hours. */
export interface CampaignRecipientUsageTable {
  id: Generated<number>;
  userId: number;
  channel: Channel;
  kind: ColumnType<DeliveryKind, DeliveryKind | undefined, DeliveryKind>;
  /** Null for planner requests. */
  campaignId: number | null;
  recipients: number;
  createdAt: Generated<Date>;
}
