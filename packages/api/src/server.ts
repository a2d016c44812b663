// Server-side entry: the router, the context types and the services jobs and tests call.
export { appRouter, createCaller } from './root.js';
export type { Context, SessionControl, SessionData, AppServices, AccountPolicy, PublicLimits } from './context.js';
export { takeChurchTurn, zodIssues, type FieldIssue } from './trpc.js';
export { checkExactOutputs } from './exact-output.js';
export { AppError, APP_ERROR_STATUS, isBadInputDbError, retryAfterOf, type AppErrorCode } from './errors.js';
export { resolveSessionUsers } from './services/auth/session-users.js';
export { resolveApiKeyUsers } from './services/api-keys/api-keys.js';
export { resolveStation, redeemPairingCode, STATION_COOKIE } from './services/checkin/stations.js';
export { registerUser } from './services/auth/register-user.js';
export {
  describeVerificationLink,
  verifyEmailToken,
  type VerificationOutcome,
} from './services/account/email-verification.js';
export { issueSetupToken } from './services/auth/setup-token.js';
export { hashPassword } from './services/auth/password.js';
export type { JobQueue, JobName, JobPayloads } from './jobs.js';
export { BadJobPayloadError, JOB_NAMES, parseJobPayload } from './jobs.js';
export { refreshContactStatistics, runContactImport } from './services/contacts/import-run.js';
export { maintainOwnSearchIndexes } from './services/contacts/search-index.js';
export { runMoveInImport } from './services/imports/run.js';
export { getMoveIn, uploadMoveIn } from './services/imports/imports.js';
export { isZip, uploadChurchExport } from './services/imports/church/move-in.js';
export { IMPORT_TOO_LARGE_MESSAGE, MAX_IMPORT_BYTES, importSourceIdSchema } from './schemas/imports.js';
export { openContactsCsvExport, openContactsExport, type OpenExport } from './services/contacts/export.js';
export { acquireExportSlot, CHURCH_LIMITS, EXPORT_BUSY, IMPORT_BUSY } from './services/contacts/church-limits.js';
export type { EmailTransport, EmailMessage } from './providers/email.js';
export { createSmtpTransport, createOutboxTransport, withChurchSenders } from './providers/email.js';
export { type DeliveryConfig, defaultDeliveryConfig } from './services/delivery/config.js';
export { Pacer } from './services/delivery/pacer.js';
export { stillSeconds } from './services/delivery/leases.js';
export { CHANNELS, deliverCampaign, startScheduledCampaign, sweepCampaigns } from './services/delivery/campaigns.js';
export type { DeliveryDeps } from './services/delivery/channels.js';
export { deliverPlannerRequests, longDate, shortTime } from './services/service-planner/request-channel.js';
export { deliverPlannerNotices } from './services/service-planner/notices.js';
export { runPlannerDue, sendDueReminders } from './services/service-planner/reminders.js';
export {
  acceptCover,
  getCoverOffer,
  offerSwap,
  requestSubstitute,
  type CoverOutcome,
} from './services/service-planner/substitutes.js';
export { alreadyCoveredMessage, offerStateFor } from './services/service-planner/offer-state.js';
export { offerSwapFromPortal, swappableDates } from './services/service-planner/portal-swaps.js';
export { deliverConversationReplies } from './services/conversations/reply-channel.js';
export { deliverConversationDigest, runConversationDigests } from './services/conversations/digest.js';
export { SENT_STATUSES } from './services/delivery/status.js';
export {
  recordOpen,
  recordClick,
  describeUnsubscribe,
  unsubscribeByToken,
} from './services/email-campaigns/tracking.js';
export type { SmsTransport, SmsMessage } from './providers/sms.js';
export {
  createTwilioTransport,
  createSmsOutboxTransport,
  twilioSignature,
  validTwilioSignature,
  withChurchNumbers,
} from './providers/sms.js';
export { churchSmsNumber, twilioWebhookTokens } from './services/settings/sms-number.js';
export { actingAs, actorOf, PUBLIC_ACTOR } from './services/events/actor.js';
export { deleteExpiredEvents } from './services/events/retention.js';
export { compactContactCounts } from './services/contacts/counts.js';
export { applySmsStatus } from './services/sms-campaigns/webhooks.js';
export { processInboundTexts, receiveInboundSms } from './services/conversations/inbound.js';
export { parseReport, verpToken, verpAddress } from './services/deliverability/reports.js';
export { authenticatedFeedbackSender, type FeedbackLoopConfig } from './services/deliverability/feedback-auth.js';
export { recordBounce } from './services/deliverability/suppressions.js';
export { churchSender } from './services/deliverability/sending-domains.js';
export {
  EMAIL_EVENT_PROVIDERS,
  handleProviderEvent,
  snsStringToSign,
} from './services/deliverability/provider-events.js';
export { getRequest, respondToRequest } from './services/service-planner/requests.js';
export type { QrSettings } from './services/qr-codes/qr-settings.js';
export { qrRenderPool, qrRenderThreads } from './services/qr-codes/render-pool.js';
export { buildQrSvg, svgToPng } from './services/qr-codes/render.js';
export {
  MAX_RENDERS_PER_CHURCH,
  MAX_WAITING_RENDERS_PER_CHURCH,
  TOO_MANY_RENDERS_MESSAGE,
  qrRenderSlots,
} from './services/qr-codes/images.js';
export {
  ScanRecorder,
  deviceClass,
  isCrawlerScan,
  referrerHost,
  resolveShortLink,
} from './services/qr-codes/short-links.js';
export { publicProjectSummary } from './services/show-up/projects.js';
export { projectTotals, showUpCardsFor } from './services/show-up/project-totals.js';
export type { ShowUpServices } from './services/show-up/config.js';
export { DEFAULT_MAP_ATTRIBUTION, DEFAULT_MAP_TILE_URL } from './services/show-up/config.js';
export type { PaymentsProvider } from './providers/payments.js';
export { createDemoPayments, createDisabledPayments, createStripePayments } from './providers/payments.js';
export { receiveStripeWebhook } from './services/show-up/stripe-webhook.js';
export { receiptFacts, receiptText, sendDonationReceipt } from './services/show-up/receipts.js';
export type { FileStorage, S3StorageOptions } from './providers/storage.js';
export { createLocalStorage, createS3Storage } from './providers/storage.js';
export {
  createUpload,
  getUpload,
  MAX_UPLOAD_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
  type Upload,
} from './services/uploads/uploads.js';
export type { SocialPublisher } from './providers/social-webhook.js';
export { createWebhookPublisher, signSocialWebhook, verifySocialWebhook } from './providers/social-webhook.js';
export { publishDueSocialPosts, sweepSocialPosts, SOCIAL_DRAIN_JOBS } from './services/social-posts/publish.js';
export { socialPostsFeed } from './services/social-posts/feed.js';
export type { AiProvider } from './providers/ai.js';
export { aiProviderFor } from './providers/ai.js';
export { getPublishedLandingPage } from './services/landing-pages/public-page.js';
export {
  visitSource,
  isCrawler,
  VisitorHasher,
  VisitRecorder,
  countVisits,
  type VisitSource,
} from './services/landing-pages/visits.js';
export { signUp } from './services/landing-pages/signups.js';
export { confirmSignup, describeSignupToken } from './services/landing-pages/signup-confirmation.js';
export { contactActivity, listEvents } from './services/events/list.js';
export { eventsSettled } from './services/events/log.js';
export { recordEvent, recordEvents, personOf } from './services/events/record.js';
export {
  churchHomeByHandle,
  joinChurchLists,
  CHURCH_NOT_FOUND,
  CHOOSE_A_LIST,
} from './services/church-profile/public-home.js';
export type { SignupDeps } from './services/landing-pages/signups.js';
export { webhookWork, type WebhookWorkerOptions } from './services/webhooks/worker.js';
export {
  startBackground,
  type BackgroundRunner,
  type BackgroundWork,
  type Round,
} from './services/background/runner.js';
export { defaultSenderOptions } from './services/webhooks/sender.js';
export { EVENTS_CHANNEL, WEBHOOKS_CHANNEL } from './services/webhooks/wake.js';
export { verifyWebhook, signWebhook } from './services/webhooks/signing.js';
export * from './services/portal/sign-in.js';
export { deliverPortalMessages, sweepPortalMessages } from './services/portal/messages.js';
export { deliverRegistrationMessages, registrationEmail } from './services/calendar/messages.js';
export { runCalendarDue, type CalendarDueResult } from './services/calendar/background.js';
export { churchEventsFeed, eventIcs } from './services/calendar/files.js';
export { ticketToken, ticketUrl } from './services/calendar/door.js';
export { deliverGroupMessages, sendGroupMessage } from './services/groups/messages.js';
export * from './services/calendar/public-pages.js';
export * from './services/calendar/public-form.js';
export * from './services/calendar/portal-events.js';
export { registerForEvent } from './services/calendar/register.js';
export type { CalendarDeps } from './services/calendar/deps.js';
export { claimOffer } from './services/calendar/waitlist.js';
export { cancelRegistration, updateRegistration } from './services/calendar/changes.js';
export { throttleRegistrations } from './services/calendar/throttle.js';
export * from './services/portal/sessions.js';
export * from './services/portal/member.js';
export * from './services/portal/schedule.js';
export * from './services/portal/giving.js';
export { churchLocaleOf, getChurchSettings } from './services/settings/church-settings.js';
export {
  proposeDetails,
  confirmProposalEmail,
  confirmProposalCode,
  openProposals,
} from './services/portal/proposals.js';
export { proposeScheduleFor } from './services/service-planner/schedule.js';
export { runDueEnrollments } from './services/journeys/runner.js';
export { processJourneyTriggers, runBirthdayTriggers } from './services/journeys/triggers.js';
export { runMissedEventTriggers } from './services/journeys/event-triggers.js';
export { deliverJourney, sweepJourneyDeliveries } from './services/journeys/channel.js';
export { deliverTaskNotices, sweepTaskNotices } from './services/journeys/task-notices.js';
export { chargeDueSchedules, type ChargeDeps } from './services/giving/charge-due.js';
export { sendGivingNotice } from './services/giving/schedule-notices.js';
export { churchOfHandle, publicFunds, churchToday } from './services/giving/giving-church.js';
export { openRenewal } from './services/giving/renewals.js';
export { scheduleByToken } from './services/giving/schedules.js';
export { deliverStatements, failStatementRun } from './services/giving/statements.js';
export {
  createExport,
  expireExports,
  getExport,
  listExports,
  openExportDownload,
  type ExportDownload,
} from './services/exports/exports.js';
export { runChurchExport, EXPORT_KEY_PREFIX, type ExportDeps } from './services/exports/build.js';
export { readExport, type ReadExport } from './services/exports/read.js';
export { finderGroups, finderGroup, type Finder, type FinderGroup } from './services/groups/finder.js';
export { askToJoin, type JoinDeps } from './services/groups/join.js';
export { churchAttendance } from './services/groups/meetings.js';
export * from './services/groups/portal.js';
