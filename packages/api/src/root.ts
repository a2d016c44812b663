import { adminRouter } from './routers/admin/router.js';
import { authRouter } from './routers/auth/router.js';
import { createCallerFactory, router } from './trpc.js';

export const appRouter = router({
  auth: authRouter,
  admin: adminRouter,
});

export type AppRouterType = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
