// The check-in station's own entry (station.html, served at /station): the station's screens and
// what they need, without the staff app's router, shell and screens, so a kiosk or tablet loads
// little, and its service worker keeps all of it for a reload without the network.
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { cssVariablesResolver, theme } from './ui/theme';
import { StationPage } from './features/checkin/station-page';
import { registerStationWorker } from './features/checkin/station-update';

// The toasts' container loads after the first paint (as in the staff app).
const NotificationsHost = lazy(() => import('./ui/notifications-host').then((m) => ({ default: m.NotificationsHost })));

function Station() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
          <Suspense fallback={null}>
            <NotificationsHost />
          </Suspense>
          <StationPage />
        </MantineProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

if (import.meta.env.PROD) registerStationWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Station />
  </StrictMode>,
);
