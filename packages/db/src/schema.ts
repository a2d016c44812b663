import type { Insertable, Selectable, SelectType, Updateable } from 'kysely';
import type { DB } from './generated/db.js';

/**
 * The database's types. Generated from the migrated database (generated/db.ts, codegen.ts): after
 * a migration, `pnpm --filter @lampstand/db db:types`. Only the JSON columns' shapes are written
 * by hand (json-shapes.ts).
 */
// An interface (not an alias) so declarations elsewhere name `Database` from this package, not the
// generated module (TypeScript's project references emit declarations for the api package).
export interface Database extends DB {}
export type {
  BlockoutRecurrence,
  ContactMetadata,
  ImportSkip,
  OutboxAttachment,
  PlanTemplateItem,
  PostalAddress,
  QrScheduleEntry,
  ShowUpImage,
} from './json-shapes.js';

export type TableName = keyof Database;
/** A row as a query returns it. */
export type Row<T extends TableName> = Selectable<Database[T]>;
/** A row to insert (defaults and nullable columns optional). */
export type NewRow<T extends TableName> = Insertable<Database[T]>;
/** The columns an update may set. */
export type RowUpdate<T extends TableName> = Updateable<Database[T]>;

/** What a column holds when read (its `check (x in (...))` values for a text column). */
type Value<T extends TableName, C extends keyof Database[T]> = SelectType<Database[T][C]>;

export type User = Row<'users'>;
export type ConsentStatus = Value<'contacts', 'emailConsent'>;
export type ContactListType = Value<'contactLists', 'type'>;
export type FamilyRelationship = Value<'contactFamilyLinks', 'relationship'>;
export type Channel = Value<'deliveries', 'channel'>;
/** What a delivery belongs to: a campaign, or a planner's request to serve. */
export type DeliveryKind = Value<'deliveries', 'kind'>;
export type ServicePlanStatus = Value<'servicePlans', 'status'>;
export type AssignmentStatus = Value<'servicePlanAssignments', 'status'>;
/** A gift's status in the ledger (a Show Up project gift is a gift). */
export type DonationStatus = Value<'gifts', 'status'>;
export type DonationSourceKind = NonNullable<Value<'gifts', 'sourceKind'>>;
/** Where a visit or a sign-up came from: our own `lsrc` (qr, link, email, sms), UTM, the referrer, or none. */
export type VisitSourceKind = Value<'landingPageVisits', 'sourceKind'>;

// The tables the services name, by their former hand-written names.
export type ContactsTable = Database['contacts'];
export type ContactListsTable = Database['contactLists'];
export type ContactImportsTable = Database['contactImports'];
export type EmailCampaignsTable = Database['emailCampaigns'];
export type SmsCampaignsTable = Database['smsCampaigns'];
export type DeliveriesTable = Database['deliveries'];
export type LandingPagesTable = Database['landingPages'];
export type MarketingTemplatesTable = Database['marketingTemplates'];
export type MarketingPackagesTable = Database['marketingPackages'];
export type QrCodesTable = Database['qrCodes'];
export type SocialPostsTable = Database['socialPosts'];
