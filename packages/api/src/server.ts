// Server-side entry: the router, the context types and the services jobs and tests call.
export { appRouter, createCaller } from './root.js';
export type { Context, SessionControl, SessionData, AppServices, AccountPolicy } from './context.js';
export { zodIssues, type FieldIssue } from './trpc.js';
export { AppError, APP_ERROR_STATUS, isBadInputDbError, type AppErrorCode } from './errors.js';
export { resolveSessionUsers } from './services/auth/session-users.js';
export { registerUser } from './services/auth/register-user.js';
export { issueSetupToken } from './services/auth/setup-token.js';
export { hashPassword } from './services/auth/password.js';
export type { JobQueue, JobName, JobPayloads } from './jobs.js';
export { JOB_NAMES } from './jobs.js';
export { runContactImport } from './services/contacts/import.js';
export type { EmailTransport, EmailMessage } from './providers/email.js';
export { createSmtpTransport, createOutboxTransport } from './providers/email.js';
export { type DeliveryConfig, defaultDeliveryConfig } from './services/delivery/config.js';
export { CHANNELS, deliverCampaign, startScheduledCampaign, sweepCampaigns } from './services/delivery/campaigns.js';
export type { DeliveryDeps } from './services/delivery/channels.js';
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
} from './providers/sms.js';
export { applySmsStatus, handleInboundSms } from './services/sms-campaigns/webhooks.js';
