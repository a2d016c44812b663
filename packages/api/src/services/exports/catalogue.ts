/**
 * What "Export everything" writes and leaves out, in words for the README: a sentence per church
 * table, the tables left out whole (secrets, sign-ins, copies the app rebuilds) and the secret
 * columns left out of tables that are written.
 */

/** A short sentence per church table; a table not named here gets a plain generic one. */
export const TABLE_DESCRIPTIONS: Record<string, string> = {
  calendar_answers: 'Answers given to events’ registration questions.',
  calendar_attendees: 'The people each event registration covers, their tickets and check-in times.',
  calendar_discount_codes: 'Events’ discount codes and how often each was used.',
  calendar_event_times: 'The times of each event, with their capacity and seats taken.',
  calendar_events: 'The church’s calendar events people register for.',
  calendar_messages: 'Messages staff sent to events’ registrants (email and text).',
  calendar_questions: 'Events’ registration questions.',
  calendar_registrations: 'Registrations for events: who, their status, what they paid and were refunded.',
  calendar_ticket_counts: 'Seats taken of each ticket type at each event time.',
  calendar_ticket_types: 'Events’ ticket types, prices and capacities.',
  ai_generations: 'Each time AI copy was written for the church (for its hourly allowance).',
  campaign_recipient_usage: 'How many people each send reached, for the daily allowance.',
  child_groups: "Children's groups (age groups, classes).",
  checkin_services: "The times children's check-in runs (a weekday and a start time).",
  checkin_rooms: "Children's check-in rooms and classes, by age or grade, with their capacity.",
  checkin_room_services: 'Which services each check-in room runs at.',
  checkin_room_closures: 'Dates a check-in room is closed.',
  checkin_child_adults: 'Adults authorised (or not) to pick each child up.',
  checkin_note_reads: "Every read of a child's medical or custody note (an audit log).",
  checkin_stations: 'Check-in stations (their pairing is not exported: pair them again after moving).',
  checkin_family_cards: "Families' check-in QR cards (new cards are made after moving).",
  checkin_codes: "Children's check-in security codes of each day.",
  checkin_offline_families:
    'First-time families a check-in station added while offline, by the station’s own ids (so a batch sent twice adds them once).',
  checkins: "Children's check-ins: who, which room, when, and who picked them up.",
  children_in_lists: "Which children's groups each child is in.",
  church_handle_redirects: "The church's earlier public handles, which still lead to its pages.",
  church_profiles: "The church's public profile (name, logo, about, links).",
  church_settings: "The church's settings: postal address, time zone, texting number and more.",
  church_stripe_accounts: "The church's connected Stripe account for giving.",
  contact_children: 'Children of contacts, with their details for check-in.',
  contact_consent_events: 'Every change of a contact’s email or SMS consent, with when and why.',
  contact_family_links: 'How contacts are related to each other (families).',
  contact_imports: 'Contact CSV imports: the file, its column mapping and the result.',
  group_attendance: 'Who came to each group meeting.',
  group_attendance_keys: "Attendance already received from a leader's phone, so a submission sent twice counts once.",
  group_join_requests: 'Requests to join a group from the public group finder, and their answers.',
  group_meetings: 'Meetings of each group, with visitors by name.',
  group_messages:
    'Messages of group leaders (or staff) to their groups: who sent them, by email or text, and the words.',
  group_members: 'Who is in each group (leaders and members), since when, and when they left.',
  groups: 'Groups (small groups, classes, teams): when and where they meet and how people join.',
  import_changes: "Each move-in import's undo log: the rows it created, and the fields it changed as they were before.",
  contact_lists: 'Contact lists and groups.',
  contact_merges: 'Contacts merged into other contacts, and what was kept.',
  contact_removals_daily: 'How many contacts were removed each day.',
  contacts: 'Every contact (person) with their details and consent.',
  contacts_in_lists: 'Which contacts are on which lists.',
  conversation_messages: 'Messages in text and email conversations with people.',
  conversations: 'Conversations with people (threads of texts or emails).',
  deliveries: 'Every message sent or queued (campaign, journey step, reminder, receipt), one row per person.',
  delivery_events: 'What happened to each message after it was sent: opened, clicked, bounced, delivered.',
  email_bounces: 'Emails that bounced, and why.',
  email_campaigns: 'Email campaigns, their content and status.',
  email_suppressions: 'Addresses that must not be emailed (bounced, complained, unsubscribed).',
  email_warmup_usage: 'How many emails the church sent each day while its sending was warming up.',
  events: 'The activity log: what happened, to whom, by whom, when.',
  exports: 'Earlier exports like this one.',
  funds: 'Giving funds (General, Building, Missions, …).',
  gift_batches: 'Batches of gifts entered by hand (cash and cheques).',
  gift_lines: 'How each gift is split between funds.',
  gifts: 'The giving ledger: every gift and payment received.',
  gift_schedule_lines: 'How each recurring gift is split between funds.',
  gift_schedules: 'Recurring gifts.',
  gift_renewals: 'Recurring givers moved in from another system, each with their link to set their gift up again.',
  giving_statement_runs: 'Giving statement runs (a year’s statements made at once).',
  giving_statements: 'Each donor’s giving statement of a run.',
  journey_enrollments: 'People in journeys and where they are.',
  journeys: 'Journeys (automated follow-up sequences).',
  journey_step_runs: 'Each journey step that ran for a person.',
  journey_versions: 'Each saved version of a journey’s steps (its definition).',
  landing_page_signups: 'Sign-ups through landing page forms.',
  landing_page_visits: 'Visits to landing pages (no personal data).',
  landing_pages: 'Landing pages and their content.',
  outbox_messages: 'Emails kept in the local outbox (when no mail server is set up).',
  portal_messages: 'Members’ portal messages waiting to be sent.',
  profile_update_proposals: 'Changes people proposed to their own details through the portal.',
  qr_code_scans: 'Scans of QR codes.',
  qr_codes: 'QR codes and where they lead.',
  sending_domains: 'Email sending domains and their DNS checks.',
  service_item_types: 'Kinds of items in a service plan (song, reading, prayer, …).',
  service_items: 'Items of each service plan, in order.',
  service_plan_announcements: 'Announcements of service plans.',
  service_plan_assignments: 'Who serves in which position at each service.',
  service_planner_settings: 'Service planner settings.',
  service_plans: 'Service plans (one per service).',
  service_plan_songs: 'Songs used in service plans.',
  service_plan_templates: 'Templates for new service plans.',
  service_teams: 'Serving teams.',
  show_up_projects: 'Show Up projects (fundraising and volunteering).',
  show_up_updates: 'Updates posted on Show Up projects.',
  sms_campaigns: 'SMS campaigns, their text and status.',
  sms_keywords: 'Text keywords people can send, and what each does.',
  sms_quick_replies: 'Saved quick replies for text conversations.',
  social_posts: 'Social media posts and their schedule.',
  social_settings: 'Social posting settings.',
  songs: 'The song library.',
  substitute_offer_candidates: 'People offered to cover for someone who cannot serve.',
  substitute_offers: 'Requests for someone to cover a serving slot.',
  tasks: 'Follow-up tasks.',
  team_member_blockouts: 'Dates team members cannot serve.',
  team_member_positions: 'Which positions each team member serves in.',
  team_members: 'Team members who serve.',
  team_positions: 'Positions in serving teams.',
  uploads: 'Uploaded images; the files themselves are in the files/ folder.',
  user_templates: 'Marketing templates available to the church.',
  webhook_deliveries: 'Calls made to the church’s webhooks.',
  webhook_endpoints: 'The church’s webhook addresses and the events they receive.',
};

/**
 * Church tables without a church column of their own: a row is the church's when its parent row
 * is (the same rule their row-level security follows). Written like the others, read through the parent.
 */
export const CHILD_TABLES: Record<string, { table: string; column: string }> = {
  delivery_events: { table: 'deliveries', column: 'delivery_id' },
  team_member_positions: { table: 'team_members', column: 'team_member_id' },
};

/** Church tables left out whole, with the reason the README gives. */
export const SKIPPED_TABLES: Record<string, string> = {
  api_keys: 'API keys only work with their secret, which is kept as a hash; create new keys after moving.',
  email_verification_tokens: 'One-time email verification links (secrets).',
  portal_sessions: "Members' portal sign-ins (secrets).",
  portal_sign_in_tokens: "Members' portal sign-in links and codes (secrets).",
  contact_search: 'A search index the app rebuilds from the contacts.',
  contact_counts: 'Contact totals the app rebuilds from the contacts.',
  group_meeting_rows:
    'Each group meeting as the attendance read writes it; the app rebuilds it from the meetings and attendance.',
  journey_trigger_cursors: 'Where the journeys last read the activity log (internal bookkeeping).',
};

/** Secret columns left out of tables that are written (table → columns), with the reason. */
export const SECRET_COLUMNS: Record<string, readonly string[]> = {
  calendar_attendees: ['ticket_token'],
  calendar_registrations: ['offer_token'],
  church_settings: ['sms_auth_token'],
  deliveries: ['token'],
  gifts: ['stripe_client_secret', 'receipt_token'],
  gift_schedules: ['stripe_client_secret', 'manage_token'],
  gift_renewals: ['token'],
  landing_page_signups: ['confirm_token_hash'],
  profile_update_proposals: ['confirm_token_hash', 'phone_code_hash'],
  sending_domains: ['dkim_private_key'],
  service_plan_assignments: ['token'],
  substitute_offer_candidates: ['token'],
  social_settings: ['webhook_secret', 'feed_token'],
  webhook_endpoints: ['secret', 'previous_secret'],
  exports: ['token_hash', 'storage_key'],
  checkin_stations: ['token_hash', 'pairing_code_hash', 'printer_bridge_secret'],
  checkin_family_cards: ['token'],
};

export const SECRET_COLUMNS_REASON =
  'Secrets are never exported: sealed credentials (texting auth token, DKIM private key, webhook signing secrets), ' +
  'and the one-time links and codes sent to people (they stop working after moving anyway).';

/** Any column whose name says it holds a secret is left out too, even in a table added later. */
export const looksSecret = (column: string) => /(password|secret|_hash$|private_key|credential|sealed)/.test(column);

export const tableDescription = (table: string) =>
  TABLE_DESCRIPTIONS[table] ?? `The church's ${table.replace(/_/g, ' ')}.`;
