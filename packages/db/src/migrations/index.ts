import type { Migration } from 'kysely/migration';
import * as m0001 from './2026_11_22_0001_accounts_and_sessions.js';
import * as m0002 from './2026_11_22_0002_contacts.js';
import * as m0003 from './2026_11_22_0003_email_campaigns.js';
import * as m0004 from './2026_11_22_0004_sms_campaigns.js';
import * as m0005 from './2026_11_22_0005_marketing_templates.js';
import * as m0006 from './2026_11_23_0006_uploads.js';
import * as m0007 from './2026_11_23_0007_landing_pages.js';
import * as m0008 from './2026_11_23_0008_qr_codes.js';
import * as m0009 from './2026_11_23_0009_show_up.js';
import * as m0010 from './2026_11_23_0010_social_posts.js';
import * as m0011 from './2026_11_23_0011_service_planner.js';
import * as m0012 from './2026_11_23_0012_hardening.js';
import * as m0031 from './2026_11_23_0031_contact_merges.js';
import * as m0032 from './2026_11_23_0032_church_time_zone.js';
import * as m0033 from './2026_11_23_0033_sessions_by_user.js';
import * as m0037 from './2026_11_23_0037_social_post_jobs.js';
import * as m0038 from './2026_11_23_0038_api_keys.js';
import * as m0039 from './2026_11_23_0039_email_verification.js';
import * as m0045 from './2026_11_23_0045_contact_search_by_church.js';
import * as m0047 from './2026_11_23_0047_contact_import_progress.js';
import * as m0048 from './2026_11_23_0048_row_level_security.js';
import * as m0049 from './2026_11_25_0049_signup_safety.js';
import * as m0050 from './2026_11_25_0050_api_key_creator.js';
import * as m0051 from './2026_11_25_0051_contact_removals.js';
import * as m0052 from './2026_11_25_0052_planner_request_deliveries.js';
import * as m0054 from './2026_11_26_0054_events.js';
import * as m0055 from './2026_11_26_0055_webhooks.js';
import * as m0056 from './2026_11_26_0056_api_key_scope.js';
import * as m0057 from './2026_11_26_0057_church_public_home.js';
import * as m0058 from './2026_11_26_0058_members_portal.js';
import * as m0059 from './2026_11_26_0059_service_times.js';
import * as m0060 from './2026_11_26_0060_journeys.js';
import * as m0065 from './2026_11_26_0065_giving.js';
import * as m0066 from './2026_11_26_0066_gift_batches.js';
import * as m0070 from './2026_11_26_0070_conversations.js';
import * as m0071 from './2026_11_26_0071_sms_keywords.js';
import * as m0072 from './2026_11_26_0072_email_suppressions.js';
import * as m0077 from './2026_11_26_0077_serving_rules.js';
import * as m0078 from './2026_11_26_0078_plan_templates.js';
import * as m0079 from './2026_11_26_0079_assignment_service_times.js';
import * as m0080 from './2026_11_26_0080_service_teams.js';
import * as m0081 from './2026_11_26_0081_serving_reminders_substitutes.js';
import * as m0083 from './2026_11_26_0083_giving_statements.js';
import * as m0085 from './2026_11_26_0085_sending_domains.js';
import * as m0086 from './2026_11_26_0086_email_provider_events.js';
import * as m0087 from './2026_11_26_0087_keyword_actions_and_digest.js';
import * as m0088 from './2026_11_26_0088_gift_reversals.js';
import * as m0089 from './2026_11_26_0089_delivery_kinds.js';
import * as m0090 from './2026_11_26_0090_task_notices.js';
import * as m0092 from './2026_11_26_0092_email_warmup.js';
import * as m0093 from './2026_11_26_0093_gift_goods_services_value.js';
import * as m0095 from './2026_11_26_0095_contact_search_function.js';
import * as m0096 from './2026_11_26_0096_contact_counts.js';
import * as m0097 from './2026_11_26_0097_sms_inbound_intake.js';
import * as m0099 from './2026_11_26_0099_contact_search_table.js';
import * as m0100 from './2026_11_26_0100_lookups_under_policies.js';
import * as m0101 from './2026_11_29_0101_proposal_phone_code.js';
import * as m0102 from './2026_11_29_0102_one_ledger.js';
import * as m0105 from './2026_11_29_0105_portal_deliveries.js';
import * as m0106 from './2026_11_29_0106_delivery_events_once.js';
import * as m0109 from './2026_11_29_0109_church_sms_numbers.js';
import * as m0117 from './2026_11_29_0117_sealed_secrets.js';
import * as m0118 from './2026_11_29_0118_mend_edited_migrations.js';
import * as m0119 from './2026_11_29_0119_bell_seen.js';
import * as m0120 from './2026_11_29_0120_getting_started.js';
import * as m0121 from './2026_11_29_0121_church_country.js';
import * as m0122 from './2026_11_29_0122_request_batches.js';
import * as m0123 from './2026_11_29_0123_portal_actor.js';
import * as m0129 from './2026_11_29_0129_church_exports.js';
import * as m0131 from './2026_11_29_0131_move_in_imports.js';
import * as m0132 from './2026_11_29_0132_gift_renewals.js';
import * as m0133 from './2026_11_29_0133_import_undo.js';
import * as m0134 from './2026_11_29_0134_church_export_imports.js';
import * as m0135 from './2026_11_29_0135_calendar_events.js';
import * as m0136 from './2026_11_29_0136_registration_deliveries.js';
import * as m0137 from './2026_11_29_0137_calendar_messages.js';
import * as m0140 from './2026_11_29_0140_groups.js';
import * as m0141 from './2026_11_29_0141_group_messages.js';
import * as m0142 from './2026_11_29_0142_group_attendance_covering.js';
import * as m0145 from './2026_11_29_0145_checkin_rooms.js';
import * as m0146 from './2026_11_29_0146_checkin_stations.js';
import * as m0150 from './2026_11_29_0150_checkin_welcome_deliveries.js';
import * as m0151 from './2026_11_29_0151_gift_refunded_cents.js';
import * as m0152 from './2026_11_29_0152_calendar_event_coordinates.js';
import * as m0155 from './2026_11_29_0155_group_meeting_rows.js';
import * as m0159 from './2026_11_29_0159_checkin_offline_families.js';
import * as m0163 from './2026_11_29_0163_event_log_xid.js';
import * as m0164 from './2026_11_29_0164_import_file_uncompressed.js';
import * as m0171 from './2026_11_30_0171_contact_search_page_walk.js';
import * as m0172 from './2026_11_30_0172_foreign_key_indexes.js';
import * as m0173 from './2026_11_30_0173_event_log_horizon.js';

/** Every migration, by its frozen date-prefixed name. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_accounts_and_sessions': m0001,
  '2026_11_22_0002_contacts': m0002,
  '2026_11_22_0003_email_campaigns': m0003,
  '2026_11_22_0004_sms_campaigns': m0004,
  '2026_11_22_0005_marketing_templates': m0005,
  '2026_11_23_0006_uploads': m0006,
  '2026_11_23_0007_landing_pages': m0007,
  '2026_11_23_0008_qr_codes': m0008,
  '2026_11_23_0009_show_up': m0009,
  '2026_11_23_0010_social_posts': m0010,
  '2026_11_23_0011_service_planner': m0011,
  '2026_11_23_0012_hardening': m0012,
  '2026_11_23_0031_contact_merges': m0031,
  '2026_11_23_0032_church_time_zone': m0032,
  '2026_11_23_0033_sessions_by_user': m0033,
  '2026_11_23_0037_social_post_jobs': m0037,
  '2026_11_23_0038_api_keys': m0038,
  '2026_11_23_0039_email_verification': m0039,
  '2026_11_23_0045_contact_search_by_church': m0045,
  '2026_11_23_0047_contact_import_progress': m0047,
  '2026_11_23_0048_row_level_security': m0048,
  '2026_11_25_0049_signup_safety': m0049,
  '2026_11_25_0050_api_key_creator': m0050,
  '2026_11_25_0051_contact_removals': m0051,
  '2026_11_25_0052_planner_request_deliveries': m0052,
  '2026_11_26_0054_events': m0054,
  '2026_11_26_0055_webhooks': m0055,
  '2026_11_26_0056_api_key_scope': m0056,
  '2026_11_26_0057_church_public_home': m0057,
  '2026_11_26_0058_members_portal': m0058,
  '2026_11_26_0059_service_times': m0059,
  '2026_11_26_0060_journeys': m0060,
  '2026_11_26_0065_giving': m0065,
  '2026_11_26_0066_gift_batches': m0066,
  '2026_11_26_0070_conversations': m0070,
  '2026_11_26_0071_sms_keywords': m0071,
  '2026_11_26_0072_email_suppressions': m0072,
  '2026_11_26_0077_serving_rules': m0077,
  '2026_11_26_0078_plan_templates': m0078,
  '2026_11_26_0079_assignment_service_times': m0079,
  '2026_11_26_0080_service_teams': m0080,
  '2026_11_26_0081_serving_reminders_substitutes': m0081,
  '2026_11_26_0083_giving_statements': m0083,
  '2026_11_26_0085_sending_domains': m0085,
  '2026_11_26_0086_email_provider_events': m0086,
  '2026_11_26_0087_keyword_actions_and_digest': m0087,
  '2026_11_26_0088_gift_reversals': m0088,
  '2026_11_26_0089_delivery_kinds': m0089,
  '2026_11_26_0090_task_notices': m0090,
  '2026_11_26_0092_email_warmup': m0092,
  '2026_11_26_0093_gift_goods_services_value': m0093,
  '2026_11_26_0095_contact_search_function': m0095,
  '2026_11_26_0096_contact_counts': m0096,
  '2026_11_26_0097_sms_inbound_intake': m0097,
  '2026_11_26_0099_contact_search_table': m0099,
  '2026_11_26_0100_lookups_under_policies': m0100,
  '2026_11_29_0101_proposal_phone_code': m0101,
  '2026_11_29_0102_one_ledger': m0102,
  '2026_11_29_0105_portal_deliveries': m0105,
  '2026_11_29_0106_delivery_events_once': m0106,
  '2026_11_29_0109_church_sms_numbers': m0109,
  '2026_11_29_0117_sealed_secrets': m0117,
  '2026_11_29_0118_mend_edited_migrations': m0118,
  '2026_11_29_0119_bell_seen': m0119,
  '2026_11_29_0120_getting_started': m0120,
  '2026_11_29_0121_church_country': m0121,
  '2026_11_29_0122_request_batches': m0122,
  '2026_11_29_0123_portal_actor': m0123,
  '2026_11_29_0129_church_exports': m0129,
  '2026_11_29_0131_move_in_imports': m0131,
  '2026_11_29_0132_gift_renewals': m0132,
  '2026_11_29_0133_import_undo': m0133,
  '2026_11_29_0134_church_export_imports': m0134,
  '2026_11_29_0135_calendar_events': m0135,
  '2026_11_29_0136_registration_deliveries': m0136,
  '2026_11_29_0137_calendar_messages': m0137,
  '2026_11_29_0140_groups': m0140,
  '2026_11_29_0141_group_messages': m0141,
  '2026_11_29_0142_group_attendance_covering': m0142,
  '2026_11_29_0145_checkin_rooms': m0145,
  '2026_11_29_0146_checkin_stations': m0146,
  '2026_11_29_0150_checkin_welcome_deliveries': m0150,
  '2026_11_29_0151_gift_refunded_cents': m0151,
  '2026_11_29_0152_calendar_event_coordinates': m0152,
  '2026_11_29_0155_group_meeting_rows': m0155,
  '2026_11_29_0159_checkin_offline_families': m0159,
  '2026_11_29_0163_event_log_xid': m0163,
  '2026_11_29_0164_import_file_uncompressed': m0164,
  '2026_11_30_0171_contact_search_page_walk': m0171,
  '2026_11_30_0172_foreign_key_indexes': m0172,
  '2026_11_30_0173_event_log_horizon': m0173,
};
