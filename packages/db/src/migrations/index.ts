import type { Migration } from 'kysely/migration';
import * as m0001 from './2026_11_22_0001_accounts_and_sessions.js';
import * as m0002 from './2026_11_22_0002_contacts.js';
import * as m0003 from './2026_11_22_0003_email_campaigns.js';
import * as m0004 from './2026_11_22_0004_sms_campaigns.js';
import * as m0005 from './2026_11_22_0005_marketing_templates.js';
import * as m0012 from './2026_11_23_0012_hardening.js';

/** Every migration, by its frozen date-prefixed name. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_accounts_and_sessions': m0001,
  '2026_11_22_0002_contacts': m0002,
  '2026_11_22_0003_email_campaigns': m0003,
  '2026_11_22_0004_sms_campaigns': m0004,
  '2026_11_22_0005_marketing_templates': m0005,
  '2026_11_23_0012_hardening': m0012,
};
