/**
 * The shapes of JSON columns, which the database types only as json/jsonb. The generated types
 * (generated/db.ts) name them through codegen.ts's JSON_COLUMN_SHAPES.
 */

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

/** A CSV line an import skipped, and why. */
export interface ImportSkip {
  line: number;
  reason: string;
}

/** A dated destination of a QR code: ISO times, either end open. */
export interface QrScheduleEntry {
  url: string;
  startsAt: string | null;
  endsAt: string | null;
}

/** An image on a Show Up row: the uploads service's id when known, its large and thumbnail URLs. */
export interface ShowUpImage {
  id: number | null;
  url: string;
  thumbnailUrl: string | null;
}

/**
 * How a blockout recurs inside its range: the nth weekday of each month (nth -1 = the last; 0 =
 * Sunday), or a weekday every `interval` weeks from the range's start.
 */
export type BlockoutRecurrence =
  | { every: 'month'; nth: 1 | 2 | 3 | 4 | 5 | -1; weekday: number }
  | { every: 'weeks'; interval: number; weekday: number };

/** An item of a plan template: what a plan's item holds, with its song and the key chosen. */
export interface PlanTemplateItem {
  serviceItemTypeId: number | null;
  title: string;
  description: string | null;
  duration: number;
  notes: string | null;
  content: Record<string, unknown>;
  isRehearsalNeeded: boolean;
  song: { songId: number; keySignature: string | null; notes: string | null; arrangement: string | null } | null;
}

/** A donor's postal address (for giving statements): each line optional. */
export interface PostalAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

/** An attachment an outbox message carried (its bytes are not kept): name, type and size. */
export interface OutboxAttachment {
  fileName: string;
  contentType: string;
  size: number;
}
