import type { Db } from '@lampstand/db';
import type { SessionUser } from './schemas/auth.js';
import type { JobQueue } from './jobs.js';
import type { EmailTransport } from './providers/email.js';
import type { SmsTransport } from './providers/sms.js';
import type { DeliveryConfig } from './services/delivery/config.js';
import type { AiProvider } from './providers/ai.js';
import type { QrSettings } from './services/qr-codes/qr-settings.js';
import type { FileStorage } from './providers/storage.js';
import type { ShowUpServices } from './services/show-up/config.js';
import type { ImportOut, ImportSourceId } from './schemas/imports.js';
import type { ApiKeyScope } from './schemas/api-keys.js';
import type { StationCredential } from './services/checkin/scope.js';

/** What a session remembers between requests. */
export interface SessionData {
  userId?: number;
  /** Set while an admin (userId) acts as this church. */
  impersonatingUserId?: number;
  /** When impersonation started (ms since the epoch); it ends after IMPERSONATION_MAX_MS. */
  impersonationStartedAt?: number;
}

/** The HTTP session, as the procedures need it; the server backs it with @fastify/session. */
export interface SessionControl {
  data(): SessionData;
  /** This session's id (undefined before it is saved). */
  id(): string | undefined;
  /** Sign in: a new session id (no fixation), then remember the user. */
  signIn(userId: number): Promise<void>;
  /** Sign out: the session is destroyed on the server, so the old cookie stops working. */
  signOut(): Promise<void>;
  setImpersonating(targetUserId: number | undefined): Promise<void>;
}

export interface AppServices {
  jobs: JobQueue;
  email: EmailTransport;
  sms: SmsTransport;
  delivery: DeliveryConfig;
  /** The AI model for landing-page copy; null when not configured (the generator is disabled). */
  ai: AiProvider | null;
  aiGenerationsPerHour: number;
  /** Limits of the public and costly endpoints, counted in PostgreSQL (`rate_limit_buckets`). */
  limits: PublicLimits;
  /** Called with the slugs of a landing page that changed (drops cached public copies). */
  landingPageChanged: (slugs: string[]) => void;
  /** Short-link domain and the logo fetch guard. */
  qr: QrSettings;
  /** Uploaded files (QR logos read their bytes here). */
  storage: FileStorage;
  showUp: ShowUpServices;
  /** Who becomes an administrator, and registration limits. */
  accounts: AccountPolicy;
  /**
   * Reads and stores a move-in upload (`uploadMoveIn`) away from the thread that answers requests
   * (the server's previews thread); without it the upload is read in place.
   */
  moveInUploads?: (
    tenantId: number,
    input: { fileName: string; csv: string; source?: ImportSourceId; presetId?: number; createdBy: number | null },
  ) => Promise<ImportOut>;
}

export interface PublicLimits {
  /** AI generations from one address an hour, whatever the church (default 100). */
  aiGenerationsPerAddressPerHour: number;
  /** Gifts started (and demo payments completed) from one address an hour (default 30). */
  donationsPerAddressPerHour: number;
}

export interface AccountPolicy {
  /** Accounts one address may register in an hour (default 20). */
  registrationsPerHour: number;
  /**
   * The first account registered becomes the administrator: only on the embedded development
   * database. Otherwise the first administrator comes from `pnpm admin:create` or the one-time
   * setup token printed at first start (`setupToken` in the registration).
   */
  firstAccountIsAdmin: boolean;
}

export interface Context {
  /** A paired check-in station (its cookie), read only when no account is signed in: it reaches `checkinProcedure`s only. */
  station?: StationCredential | null;
  db: Db;
  /**
   * For reads that may be a second behind (dashboards, reports, exports, the events API,
   * statements): a streaming replica's handle when `DATABASE_READ_URL` is set and this session or
   * key has not written in the last few seconds; otherwise `db`. Scoped like `db` by the
   * procedure builders. Never for a write.
   */
  readDb?: Db;
  session: SessionControl;
  ip: string;
  /** The account that signed in (the admin, while impersonating). */
  user: SessionUser | null;
  /** Who every action acts as: the impersonated church while impersonating, else `user`. */
  effectiveUser: SessionUser | null;
  services: AppServices;
  /**
   * How the request authenticated: 'apiKey' for `Authorization: Bearer` (an integrator's key acts
   * as its church, never reaches admin procedures and never uses the session). Default 'session'.
   */
  authMethod?: 'session' | 'apiKey';
  /** With an API key: its id (the actor of the events the call causes). */
  apiKeyId?: number;
  /** With an API key: 'read' refuses every write (403), 'write' reads and writes. */
  apiKeyScope?: ApiKeyScope;
}
