import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import {
  createBrowserRouter,
  createRoutesFromElements,
  Navigate,
  Outlet,
  Route,
  RouterProvider,
} from 'react-router-dom';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { cssVariablesResolver, theme } from './ui/theme';
import { RequireAdmin, RequireUser } from './shell/guards';
import { ChurchLocale } from './lib/church-locale';
import { useSession } from './shell/session';
import { lazyScreen, preloadScreens } from './shell/lazy-screen';
import { ComingSoonPage } from './features/misc/coming-soon-page';
import { NotFoundPage } from './features/misc/not-found-page';

// Every screen loads on first visit, sign-in and the dashboard too: the first paint carries only
// the providers, the router and the shell (zod and the form code come with the screens that use
// them). `pnpm --filter @lampstand/web build` prints what each route adds. The screens of the first
// URL start loading when the app starts (preloadScreens), not once the session check has answered.
const AppLayout = lazyScreen(() => import('./shell/app-layout'), 'AppLayout');
const NotificationsHost = lazyScreen(() => import('./ui/notifications-host'), 'NotificationsHost');
const AuthPage = lazyScreen(() => import('./features/auth/auth-page'), 'AuthPage');
const DashboardPage = lazyScreen(() => import('./features/dashboard/dashboard-page'), 'DashboardPage');
const UsersPage = lazyScreen(() => import('./features/admin/users-page'), 'UsersPage');
const AccountPage = lazyScreen(() => import('./features/account/account-page'), 'AccountPage');
const SettingsPage = lazyScreen(() => import('./features/settings/settings-layout'), 'SettingsPage');
const ContactsPage = lazyScreen(() => import('./features/contacts/contacts-page'), 'ContactsPage');
const ContactDetailPage = lazyScreen(() => import('./features/contacts/contact-detail-page'), 'ContactDetailPage');
const EmailCampaignsPage = lazyScreen(() => import('./features/email-campaigns/list-page'), 'EmailCampaignsPage');
const EmailCampaignViewPage = lazyScreen(() => import('./features/email-campaigns/view-page'), 'EmailCampaignViewPage');
const SmsCampaignsPage = lazyScreen(() => import('./features/sms-campaigns/sms-page'), 'SmsCampaignsPage');
const ConversationsPage = lazyScreen(() => import('./features/conversations/conversations-page'), 'ConversationsPage');
const KeywordsPage = lazyScreen(() => import('./features/conversations/keywords-page'), 'KeywordsPage');
const ConversationThreadPage = lazyScreen(
  () => import('./features/conversations/thread-page'),
  'ConversationThreadPage',
);
const AdminTemplatesPage = lazyScreen(() => import('./features/templates/admin-templates-page'), 'AdminTemplatesPage');
const EditEmailCampaignPage = lazyScreen(() => import('./features/email-campaigns/wizard'), 'EditEmailCampaignPage');
const NewEmailCampaignPage = lazyScreen(() => import('./features/email-campaigns/wizard'), 'NewEmailCampaignPage');
const ChurchTemplatesPage = lazyScreen(
  () => import('./features/templates/church-templates-page'),
  'ChurchTemplatesPage',
);
const SocialBlastPage = lazyScreen(() => import('./features/social-blast/social-blast-page'), 'SocialBlastPage');
const QrCodesPage = lazyScreen(() => import('./features/qr-codes/qr-codes-page'), 'QrCodesPage');
const GivingOverviewPage = lazyScreen(() => import('./features/giving/overview-page'), 'GivingOverviewPage');
const FundsPage = lazyScreen(() => import('./features/giving/funds-page'), 'FundsPage');
const RecurringPage = lazyScreen(() => import('./features/giving/recurring-page'), 'RecurringPage');
const BatchesPage = lazyScreen(() => import('./features/giving/batches-page'), 'BatchesPage');
const BatchPage = lazyScreen(() => import('./features/giving/batch-page'), 'BatchPage');
const StatementsPage = lazyScreen(() => import('./features/giving/statements-page'), 'StatementsPage');
const ProfileUpdatesPage = lazyScreen(
  () => import('./features/profile-updates/profile-updates-page'),
  'ProfileUpdatesPage',
);
const PrintTemplatePage = lazyScreen(() => import('./features/templates/church-templates-page'), 'PrintTemplatePage');
const ServicePlannerPage = lazyScreen(
  () => import('./features/service-planner/service-planner-page'),
  'ServicePlannerPage',
);
const PlanPage = lazyScreen(() => import('./features/service-planner/plan-page'), 'PlanPage');
const PlanPrintPage = lazyScreen(() => import('./features/service-planner/print-page'), 'PlanPrintPage');
const SongPrintPage = lazyScreen(() => import('./features/service-planner/print-page'), 'SongPrintPage');
const LandingPagesPage = lazyScreen(() => import('./features/landing-pages/list-page'), 'LandingPagesPage');
const LandingPageBuilderPage = lazyScreen(
  () => import('./features/landing-pages/builder-page'),
  'LandingPageBuilderPage',
);
const LandingPageStatsPage = lazyScreen(() => import('./features/landing-pages/stats-page'), 'LandingPageStatsPage');

const ShowUpShell = lazyScreen(() => import('./features/show-up/show-up-shell'), 'ShowUpShell');
const ShowUpPage = lazyScreen(() => import('./features/show-up/list-page'), 'ShowUpPage');
const ProjectDetailPage = lazyScreen(() => import('./features/show-up/detail-page'), 'ProjectDetailPage');
const DonationSuccessPage = lazyScreen(() => import('./features/show-up/donation-success-page'), 'DonationSuccessPage');
const NewProjectPage = lazyScreen(() => import('./features/show-up/project-form-page'), 'NewProjectPage');
const EditProjectPage = lazyScreen(() => import('./features/show-up/project-form-page'), 'EditProjectPage');
const NewUpdatePage = lazyScreen(() => import('./features/show-up/update-page'), 'NewUpdatePage');
const JourneysPage = lazyScreen(() => import('./features/journeys/list-page'), 'JourneysPage');
const JourneyEditorPage = lazyScreen(() => import('./features/journeys/editor-page'), 'JourneyEditorPage');
const TasksPage = lazyScreen(() => import('./features/tasks/tasks-page'), 'TasksPage');
const GroupsPage = lazyScreen(() => import('./features/groups/groups-page'), 'GroupsPage');
const GroupPage = lazyScreen(() => import('./features/groups/group-page'), 'GroupPage');
const EventsPage = lazyScreen(() => import('./features/events/events-page'), 'EventsPage');
const EventEditorPage = lazyScreen(() => import('./features/events/event-editor-page'), 'EventEditorPage');
const EventPage = lazyScreen(() => import('./features/events/event-page'), 'EventPage');
const DoorPage = lazyScreen(() => import('./features/events/door-page'), 'DoorPage');

/** Every route's frame: the session check starts here, while the lazy screens that read it load. */
function Root() {
  useSession();
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      }
    >
      <Outlet />
    </Suspense>
  );
}

/**
 * Every route, in a data router (createBrowserRouter): what lets a screen with unsaved work ask
 * before in-app navigation (`useBlocker`). Lazy screens load inside the one Suspense.
 */
const routes = createRoutesFromElements(
  <Route element={<Root />}>
    <Route path="/auth" element={<AuthPage />} />
    {/* Print views: the sheet alone, without the app's navigation. */}
    <Route
      element={
        <RequireUser>
          <ChurchLocale>
            <Outlet />
          </ChurchLocale>
        </RequireUser>
      }
    >
      <Route path="/service-planner/plans/:id/print" element={<PlanPrintPage />} />
      <Route path="/service-planner/songs/:id/print" element={<SongPrintPage />} />
    </Route>
    {/* Show Up's public pages: visitors and donors are not signed in. */}
    <Route element={<ShowUpShell />}>
      <Route path="/show-up" element={<ShowUpPage />} />
      <Route path="/show-up/donation-success" element={<DonationSuccessPage />} />
      <Route path="/show-up/:id" element={<ProjectDetailPage />} />
    </Route>
    <Route
      element={
        <RequireUser>
          <ChurchLocale>
            <Outlet />
          </ChurchLocale>
        </RequireUser>
      }
    >
      {/* The shell is lazy too (sign-in and the public pages do without it); it loads beside the session check. */}
      <Route element={<AppLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/settings/:section" element={<SettingsPage />} />
        <Route path="/contacts" element={<ContactsPage />} />
        <Route path="/contacts/new" element={<ContactsPage />} />
        <Route path="/contacts/detail/:id" element={<ContactDetailPage />} />
        <Route path="/templates" element={<ChurchTemplatesPage />} />
        <Route path="/templates/:id/print" element={<PrintTemplatePage />} />
        <Route path="/social-blast" element={<SocialBlastPage />} />
        <Route path="/sms-campaigns" element={<SmsCampaignsPage />} />
        <Route path="/sms-campaigns/new" element={<SmsCampaignsPage />} />
        <Route path="/conversations" element={<ConversationsPage />} />
        <Route path="/conversations/keywords" element={<KeywordsPage />} />
        <Route path="/conversations/:id" element={<ConversationThreadPage />} />
        <Route path="/email-campaigns" element={<EmailCampaignsPage />} />
        <Route path="/email-campaigns/new" element={<NewEmailCampaignPage />} />
        <Route path="/email-campaigns/:id" element={<EmailCampaignViewPage />} />
        <Route path="/email-campaigns/:id/edit" element={<EditEmailCampaignPage />} />
        <Route path="/service-planner" element={<ServicePlannerPage />} />
        <Route path="/service-planner/plans/:id" element={<PlanPage />} />
        <Route path="/qr-codes" element={<QrCodesPage />} />
        <Route path="/profile-updates" element={<ProfileUpdatesPage />} />
        <Route path="/qr-codes/new" element={<QrCodesPage />} />
        <Route path="/giving" element={<Navigate to="/giving/overview" replace />} />
        <Route path="/giving/overview" element={<GivingOverviewPage />} />
        <Route path="/giving/funds" element={<FundsPage />} />
        <Route path="/giving/recurring" element={<RecurringPage />} />
        <Route path="/giving/batches" element={<BatchesPage />} />
        <Route path="/giving/batches/:id" element={<BatchPage />} />
        <Route path="/giving/statements" element={<StatementsPage />} />
        <Route path="/show-up/new" element={<NewProjectPage />} />
        <Route path="/show-up/:id/edit" element={<EditProjectPage />} />
        <Route path="/show-up/:id/update/new" element={<NewUpdatePage />} />
        <Route
          path="/news-builder"
          element={<ComingSoonPage title="News Builder" description="Build newsletters and announcements." />}
        />
        <Route
          path="/scheduling"
          element={<ComingSoonPage title="Scheduling" description="Plan and automate your campaigns." />}
        />
        <Route
          path="/scheduling/new"
          element={<ComingSoonPage title="Scheduling" description="Plan and automate your campaigns." />}
        />
        <Route path="/landing-pages" element={<LandingPagesPage />} />
        <Route path="/landing-pages/new" element={<LandingPagesPage />} />
        <Route path="/landing-pages/:id" element={<LandingPageBuilderPage />} />
        <Route path="/landing-pages/:id/stats" element={<LandingPageStatsPage />} />
        <Route path="/journeys" element={<JourneysPage />} />
        <Route path="/journeys/:id" element={<JourneyEditorPage />} />
        <Route path="/tasks" element={<TasksPage />} />
        <Route path="/groups" element={<GroupsPage />} />
        <Route path="/groups/:id" element={<GroupPage />} />
        <Route path="/events" element={<EventsPage />} />
        <Route path="/events/new" element={<EventEditorPage />} />
        <Route path="/events/:id" element={<EventPage />} />
        <Route path="/events/:id/edit" element={<EventEditorPage />} />
        <Route path="/events/:id/door" element={<DoorPage />} />
        <Route
          element={
            <RequireAdmin>
              <Outlet />
            </RequireAdmin>
          }
        >
          <Route path="/admin/users" element={<UsersPage />} />
          <Route path="/admin/templates" element={<AdminTemplatesPage />} />
        </Route>
      </Route>
    </Route>
    <Route path="*" element={<NotFoundPage />} />
  </Route>,
);

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  const [router] = useState(() => {
    preloadScreens(routes, window.location);
    return createBrowserRouter(routes);
  });
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
          <ModalsProvider>
            <Suspense fallback={null}>
              <NotificationsHost />
            </Suspense>
            <RouterProvider router={router} />
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
