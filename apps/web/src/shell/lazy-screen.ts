import { lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';

/** A lazily loaded component that can start loading before it renders. */
export type LazyScreen = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/** `React.lazy` of one export of a module, plus `preload()` (the same request: one load either way). */
export function lazyScreen<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): LazyScreen {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const start = () => (loading ??= load().then((m) => ({ default: m[name] })));
  return Object.assign(lazy(start), { preload: start });
}

/**
 * Start loading the lazy screens the first URL shows (the dashboard, or Show Up's shell and project)
 * as soon as the app runs, beside the session check, instead of after it: a failure is left to the
 * screen's own `lazy`, which reports it when it renders.
 */
export function preloadScreens(routes: RouteObject[], location: { pathname: string }) {
  for (const m of matchRoutes(routes, location) ?? []) {
    const type = (m.route.element as ReactElement | undefined)?.type as Partial<LazyScreen> | undefined;
    type?.preload?.().catch(() => undefined);
  }
}
