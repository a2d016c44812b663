/**
 * The station's service worker (`/station-sw.js`, registered by the station's entry only): it keeps
 * the station's page and scripts so a reload without the network still opens the station. A new
 * deploy installs a new worker, which takes over at once and drops the old files; the page then
 * reloads at the next quiet moment (between two families, after a pickup), not in a family's face.
 */
let updated = false;

export function registerStationWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  const hadController = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    // The first install takes control of this page too: nothing to reload for.
    if (hadController) updated = true;
  });
  void container.register('/station-sw.js', { scope: '/station' }).catch(() => {
    // No service worker (a private window, an old browser): the station works while the page stays open.
  });
}

/** Reload into the new version when one took over since the page loaded. */
export function reloadIfUpdated(): void {
  if (updated && navigator.onLine) window.location.reload();
}
