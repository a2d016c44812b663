import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router-dom';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { cssVariablesResolver, theme } from './ui/theme';
import { AppLayout } from './shell/app-layout';
import { RequireAdmin, RequireUser } from './shell/guards';
import { ComingSoonPage, NotFoundPage, PlaceholderPage } from './features/misc/pages';

// Every screen loads on first visit, sign-in and the dashboard too: the first paint carries only
// the providers, the router and the shell (zod and the form code come with the screens that use
// them). `pnpm --filter @lampstand/web build` prints what each route adds.
const AuthPage = lazy(() => import('./features/auth/auth-page').then((m) => ({ default: m.AuthPage })));
const DashboardPage = lazy(() =>
  import('./features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);
const UsersPage = lazy(() => import('./features/admin/users-page').then((m) => ({ default: m.UsersPage })));
const SettingsPage = lazy(() => import('./features/settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const ContactsPage = lazy(() => import('./features/contacts/contacts-page').then((m) => ({ default: m.ContactsPage })));
const ContactDetailPage = lazy(() =>
  import('./features/contacts/contact-detail-page').then((m) => ({ default: m.ContactDetailPage })),
);
const EmailCampaignsPage = lazy(() =>
  import('./features/email-campaigns/list-page').then((m) => ({ default: m.EmailCampaignsPage })),
);
const EmailCampaignViewPage = lazy(() =>
  import('./features/email-campaigns/view-page').then((m) => ({ default: m.EmailCampaignViewPage })),
);
const SmsCampaignsPage = lazy(() =>
  import('./features/sms-campaigns/sms-page').then((m) => ({ default: m.SmsCampaignsPage })),
);
const AdminTemplatesPage = lazy(() =>
  import('./features/templates/admin-templates-page').then((m) => ({ default: m.AdminTemplatesPage })),
);
const EditEmailCampaignPage = lazy(() =>
  import('./features/email-campaigns/wizard').then((m) => ({ default: m.EditEmailCampaignPage })),
);
const NewEmailCampaignPage = lazy(() =>
  import('./features/email-campaigns/wizard').then((m) => ({ default: m.NewEmailCampaignPage })),
);
const ChurchTemplatesPage = lazy(() =>
  import('./features/templates/church-templates-page').then((m) => ({ default: m.ChurchTemplatesPage })),
);
const SocialBlastPage = lazy(() =>
  import('./features/social-blast/social-blast-page').then((m) => ({ default: m.SocialBlastPage })),
);
const QrCodesPage = lazy(() => import('./features/qr-codes/qr-codes-page').then((m) => ({ default: m.QrCodesPage })));
const PrintTemplatePage = lazy(() =>
  import('./features/templates/church-templates-page').then((m) => ({ default: m.PrintTemplatePage })),
);
const ServicePlannerPage = lazy(() =>
  import('./features/service-planner/service-planner-page').then((m) => ({ default: m.ServicePlannerPage })),
);
const PlanPage = lazy(() => import('./features/service-planner/plan-page').then((m) => ({ default: m.PlanPage })));
const PlanPrintPage = lazy(() =>
  import('./features/service-planner/print-page').then((m) => ({ default: m.PlanPrintPage })),
);
const SongPrintPage = lazy(() =>
  import('./features/service-planner/print-page').then((m) => ({ default: m.SongPrintPage })),
);
const LandingPagesPage = lazy(() =>
  import('./features/landing-pages/list-page').then((m) => ({ default: m.LandingPagesPage })),
);
const LandingPageBuilderPage = lazy(() =>
  import('./features/landing-pages/builder-page').then((m) => ({ default: m.LandingPageBuilderPage })),
);
const LandingPageStatsPage = lazy(() =>
  import('./features/landing-pages/stats-page').then((m) => ({ default: m.LandingPageStatsPage })),
);

const ShowUpShell = lazy(() => import('./features/show-up/show-up-shell').then((m) => ({ default: m.ShowUpShell })));
const ShowUpPage = lazy(() => import('./features/show-up/list-page').then((m) => ({ default: m.ShowUpPage })));
const ProjectDetailPage = lazy(() =>
  import('./features/show-up/detail-page').then((m) => ({ default: m.ProjectDetailPage })),
);
const DonationSuccessPage = lazy(() =>
  import('./features/show-up/donation-success-page').then((m) => ({ default: m.DonationSuccessPage })),
);
const NewProjectPage = lazy(() =>
  import('./features/show-up/project-form-page').then((m) => ({ default: m.NewProjectPage })),
);
const EditProjectPage = lazy(() =>
  import('./features/show-up/project-form-page').then((m) => ({ default: m.EditProjectPage })),
);
const NewUpdatePage = lazy(() => import('./features/show-up/update-page').then((m) => ({ default: m.NewUpdatePage })));

/** Routes that later releases fill in: their title and one line, nothing invented. */
const placeholders: { path: string; title: string; description: string }[] = [
  { path: '/qr-codes/new', title: 'New QR Code', description: 'Create a QR code.' },
  { path: '/qr-codes', title: 'QR Codes', description: 'QR codes and short links for print and screens.' },
  {
    path: '/landing-pages',
    title: 'Landing Pages',
    description: 'Pages for events and ministries, with AI-written copy.',
  },
  { path: '/landing-pages/new', title: 'New Landing Page', description: 'Create a landing page.' },
  { path: '/service-planner', title: 'Service Planner', description: 'Service plans, songs and team members.' },
  { path: '/social-blast', title: 'Social Blast', description: 'Plan social media posts on a calendar.' },
];

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
          <ModalsProvider>
            {/* Bottom-right: clear of the header, the impersonation banner's Stop button, and the close
                button and title of every sheet and dialog (all at the top). */}
            <Notifications limit={1} autoClose={5000} position="bottom-right" />
            <BrowserRouter>
              <Suspense
                fallback={
                  <Center py="xl">
                    <Loader aria-label="Loading" />
                  </Center>
                }
              >
                <Routes>
                  <Route path="/auth" element={<AuthPage />} />
                  {/* Print views: the sheet alone, without the app's navigation. */}
                  <Route
                    element={
                      <RequireUser>
                        <Outlet />
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
                        <AppLayout />
                      </RequireUser>
                    }
                  >
                    <Route index element={<DashboardPage />} />
                    <Route path="/settings" element={<SettingsPage />} />
                    <Route path="/contacts" element={<ContactsPage />} />
                    <Route path="/contacts/new" element={<ContactsPage />} />
                    <Route path="/contacts/detail/:id" element={<ContactDetailPage />} />
                    <Route path="/templates" element={<ChurchTemplatesPage />} />
                    <Route path="/templates/:id/print" element={<PrintTemplatePage />} />
                    <Route path="/social-blast" element={<SocialBlastPage />} />
                    <Route path="/sms-campaigns" element={<SmsCampaignsPage />} />
                    <Route path="/sms-campaigns/new" element={<SmsCampaignsPage />} />
                    <Route path="/email-campaigns" element={<EmailCampaignsPage />} />
                    <Route path="/email-campaigns/new" element={<NewEmailCampaignPage />} />
                    <Route path="/email-campaigns/:id" element={<EmailCampaignViewPage />} />
                    <Route path="/email-campaigns/:id/edit" element={<EditEmailCampaignPage />} />
                    <Route path="/service-planner" element={<ServicePlannerPage />} />
                    <Route path="/service-planner/plans/:id" element={<PlanPage />} />
                    <Route path="/qr-codes" element={<QrCodesPage />} />
                    <Route path="/qr-codes/new" element={<QrCodesPage />} />
                    <Route path="/show-up/new" element={<NewProjectPage />} />
                    <Route path="/show-up/:id/edit" element={<EditProjectPage />} />
                    <Route path="/show-up/:id/update/new" element={<NewUpdatePage />} />
                    <Route
                      path="/news-builder"
                      element={
                        <ComingSoonPage title="News Builder" description="Build newsletters and announcements." />
                      }
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
                    {placeholders.map((p) => (
                      <Route
                        key={p.path}
                        path={p.path}
                        element={<PlaceholderPage title={p.title} description={p.description} />}
                      />
                    ))}
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
                  <Route path="*" element={<NotFoundPage />} />
                </Routes>
              </Suspense>
            </BrowserRouter>
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
