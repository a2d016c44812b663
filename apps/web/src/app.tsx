import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router-dom';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { cssVariablesResolver, theme } from './ui/theme';
import { AppLayout } from './shell/app-layout';
import { RequireAdmin, RequireUser } from './shell/guards';
import { AuthPage } from './features/auth/auth-page';
import { DashboardPage } from './features/dashboard/dashboard-page';
import { UsersPage } from './features/admin/users-page';
import { SettingsPage } from './features/settings/settings-page';
import { ContactsPage } from './features/contacts/contacts-page';
import { ContactDetailPage } from './features/contacts/contact-detail-page';
import { EmailCampaignsPage } from './features/email-campaigns/list-page';
import { EditEmailCampaignPage, NewEmailCampaignPage } from './features/email-campaigns/wizard';
import { EmailCampaignViewPage } from './features/email-campaigns/view-page';
import { SmsCampaignsPage } from './features/sms-campaigns/sms-page';
import { AdminTemplatesPage } from './features/templates/admin-templates-page';
import { ChurchTemplatesPage, PrintTemplatePage } from './features/templates/church-templates-page';
import { ComingSoonPage, NotFoundPage, PlaceholderPage } from './features/misc/pages';

/** Routes that later releases fill in: their title and one line, nothing invented. */
const placeholders: { path: string; title: string; description: string }[] = [
  { path: '/landing-pages', title: 'Landing Pages', description: 'Pages for events and ministries, with AI-written copy.' },
  { path: '/landing-pages/new', title: 'New Landing Page', description: 'Create a landing page.' },
  { path: '/qr-codes/new', title: 'New QR Code', description: 'Create a QR code.' },
  { path: '/qr-codes', title: 'QR Codes', description: 'QR codes and short links for print and screens.' },
  { path: '/service-planner', title: 'Service Planner', description: 'Service plans, songs and team members.' },
  { path: '/social-blast', title: 'Social Blast', description: 'Plan social media posts on a calendar.' },
  { path: '/show-up', title: 'Show Up', description: 'Crowdfunding for church projects.' },
  { path: '/show-up/new', title: 'List a Project', description: 'Create a Show Up project.' },
  { path: '/show-up/donation-success', title: 'Thank you', description: 'Your donation.' },
  { path: '/show-up/:id', title: 'Project', description: 'A Show Up project.' },
  { path: '/show-up/:id/edit', title: 'Edit Project', description: 'Change a Show Up project.' },
  { path: '/show-up/:id/update/new', title: 'Post an Update', description: 'Tell supporters what is happening.' },
];

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
          <ModalsProvider>
            <Notifications limit={1} autoClose={5000} position="top-right" />
            <BrowserRouter>
              <Routes>
                <Route path="/auth" element={<AuthPage />} />
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
                  <Route path="/sms-campaigns" element={<SmsCampaignsPage />} />
                  <Route path="/sms-campaigns/new" element={<SmsCampaignsPage />} />
                  <Route path="/email-campaigns" element={<EmailCampaignsPage />} />
                  <Route path="/email-campaigns/new" element={<NewEmailCampaignPage />} />
                  <Route path="/email-campaigns/:id" element={<EmailCampaignViewPage />} />
                  <Route path="/email-campaigns/:id/edit" element={<EditEmailCampaignPage />} />
                  <Route path="/news-builder" element={<ComingSoonPage title="News Builder" description="Build newsletters and announcements." />} />
                  <Route path="/scheduling" element={<ComingSoonPage title="Scheduling" description="Plan and automate your campaigns." />} />
                  <Route path="/scheduling/new" element={<ComingSoonPage title="Scheduling" description="Plan and automate your campaigns." />} />
                  {placeholders.map((p) => (
                    <Route key={p.path} path={p.path} element={<PlaceholderPage title={p.title} description={p.description} />} />
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
            </BrowserRouter>
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
