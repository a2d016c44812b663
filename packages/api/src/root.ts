import { useSyncParsers } from './sync-parsers.js';
import { accountRouter } from './routers/account/router.js';
import { adminRouter } from './routers/admin/router.js';
import { apiKeysRouter } from './routers/api-keys/router.js';
import { authRouter } from './routers/auth/router.js';
import { childGroupsRouter } from './routers/child-groups/router.js';
import { checkinRouter } from './routers/checkin/router.js';
import { childrenRouter } from './routers/children/router.js';
import { contactImportsRouter } from './routers/contact-imports/router.js';
import { importsRouter } from './routers/imports/router.js';
import { contactListsRouter } from './routers/contact-lists/router.js';
import { contactsRouter } from './routers/contacts/router.js';
import { familyRouter } from './routers/family/router.js';
import { emailCampaignsRouter } from './routers/email-campaigns/router.js';
import { outboxRouter } from './routers/outbox/router.js';
import { settingsRouter } from './routers/settings/router.js';
import { smsCampaignsRouter } from './routers/sms-campaigns/router.js';
import { dashboardRouter } from './routers/dashboard/router.js';
import { profileUpdatesRouter } from './routers/profile-updates/router.js';
import { adminTemplatesRouter, templatesRouter } from './routers/templates/router.js';
import { servicePlannerRouter } from './routers/service-planner/router.js';
import { groupsRouter } from './routers/groups/router.js';
import { socialPostsRouter } from './routers/social-posts/router.js';
import { landingPagesRouter } from './routers/landing-pages/router.js';
import { aiGeneratorRouter } from './routers/ai-generator/router.js';
import { qrCodesRouter } from './routers/qr-codes/router.js';
import { showUpRouter } from './routers/show-up/router.js';
import { eventsRouter } from './routers/events/router.js';
import { webhooksRouter } from './routers/webhooks/router.js';
import { fundsRouter } from './routers/giving/funds-router.js';
import { givingRouter } from './routers/giving/router.js';
import { calendarRouter } from './routers/calendar/router.js';
import { registrationsRouter } from './routers/calendar/registrations-router.js';
import { publicCalendarRouter } from './routers/calendar/public-router.js';
import { conversationsRouter } from './routers/conversations/router.js';
import { smsKeywordsRouter } from './routers/sms-keywords/router.js';
import { suppressionsRouter } from './routers/suppressions/router.js';
import { sendingDomainsRouter } from './routers/sending-domains/router.js';
import { createCallerFactory, router } from './trpc.js';
import { journeysRouter } from './routers/journeys/router.js';
import { tasksRouter } from './routers/tasks/router.js';
import { searchRouter } from './routers/search/router.js';
import { waitingRouter } from './routers/waiting/router.js';
import { exportsRouter } from './routers/exports/router.js';

export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  admin: adminRouter,
  contacts: contactsRouter,
  contactLists: contactListsRouter,
  family: familyRouter,
  children: childrenRouter,
  childGroups: childGroupsRouter,
  checkin: checkinRouter,
  contactImports: contactImportsRouter,
  imports: importsRouter,
  emailCampaigns: emailCampaignsRouter,
  outbox: outboxRouter,
  settings: settingsRouter,
  apiKeys: apiKeysRouter,
  events: eventsRouter,
  webhooks: webhooksRouter,
  smsCampaigns: smsCampaignsRouter,
  dashboard: dashboardRouter,
  profileUpdates: profileUpdatesRouter,
  adminTemplates: adminTemplatesRouter,
  templates: templatesRouter,
  servicePlanner: servicePlannerRouter,
  groups: groupsRouter,
  socialPosts: socialPostsRouter,
  landingPages: landingPagesRouter,
  aiGenerator: aiGeneratorRouter,
  qrCodes: qrCodesRouter,
  showUp: showUpRouter,
  journeys: journeysRouter,
  tasks: tasksRouter,
  funds: fundsRouter,
  giving: givingRouter,
  calendar: calendarRouter,
  registrations: registrationsRouter,
  publicCalendar: publicCalendarRouter,
  conversations: conversationsRouter,
  smsKeywords: smsKeywordsRouter,
  suppressions: suppressionsRouter,
  sendingDomains: sendingDomainsRouter,
  search: searchRouter,
  waiting: waitingRouter,
  exports: exportsRouter,
});

// Zod's compiled (synchronous) parse for every procedure's input and output (sync-parsers.ts).
useSyncParsers(appRouter);

export type AppRouterType = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
