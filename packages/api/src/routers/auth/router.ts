import { loginSchema, okSchema, registerSchema, sessionUserSchema } from '../../schemas/auth.js';
import { login } from '../../services/auth/login.js';
import { registerUser } from '../../services/auth/register-user.js';
import { throttleRegistration } from '../../services/auth/throttle-registration.js';
import { sendVerificationEmail } from '../../services/account/email-verification.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';
import { verificationDeps } from '../account/router.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Accounts');

export const authRouter = router({
  /** The signed-in user (the impersonated church, with `_impersonatedBy`, while impersonating). */
  me: protectedProcedure
    .meta(rest.get('/api/user', 'The signed-in user (401 when not signed in)'))
    .output(sessionUserSchema)
    .query(({ ctx }) => ctx.effectiveUser),

  register: publicProcedure
    .meta(rest.post('/api/register', 'Create a church account and sign in', { status: 201, errors: [409, 429] }))
    .input(registerSchema)
    .output(sessionUserSchema)
    .mutation(async ({ ctx, input }) => {
      await throttleRegistration(ctx.db, { ip: ctx.ip, perHour: ctx.services.accounts.registrationsPerHour });
      const user = await registerUser(ctx.db, input, {
        firstAccountIsAdmin: ctx.services.accounts.firstAccountIsAdmin,
      });
      await ctx.session.signIn(user.id);
      // The link that lifts the new church's daily limit. An email that cannot be sent now does not
      // undo the registration: the Account page sends another.
      await sendVerificationEmail(verificationDeps(ctx), user.id).catch(() => undefined);
      return user;
    }),

  login: publicProcedure
    .meta(rest.post('/api/login', 'Sign in with username and password', { errors: [429] }))
    .input(loginSchema)
    .output(sessionUserSchema)
    .mutation(async ({ ctx, input }) => {
      const user = await login(ctx.db, { ...input, ip: ctx.ip });
      await ctx.session.signIn(user.id);
      return user;
    }),

  logout: publicProcedure
    .meta(rest.post('/api/logout', 'End the session on the server'))
    .output(okSchema)
    .mutation(async ({ ctx }) => {
      await ctx.session.signOut();
      return { ok: true as const, message: 'Logged out' };
    }),
});
