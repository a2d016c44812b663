// Per-route security switches, set in a route's `config` (Fastify route options).
//
//   app.post('/api/uploads', { config: { multipart: true }, bodyLimit: 10 * 1024 * 1024 }, handler)
//   app.post('/api/stripe/webhook', { config: { publicNoCsrf: true } }, handler)
//   app.post('/c/:handle/me/link/:token', { config: { sameOrigin: true } }, handler)
//
// See docs/security.md.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes `multipart/form-data` (everywhere else it is refused with 415 before the body is read). */
    multipart?: boolean;
    /**
     * A public route under /api or /trpc that is not a signed-in state change (webhooks, public
     * forms): the CSRF check (JSON and an allowed Origin for cookie-authenticated writes) is skipped.
     * Routes outside /api and /trpc are never checked.
     */
    publicNoCsrf?: boolean;
    /**
     * A POST outside /api and /trpc that signs a browser in or sets a cookie (the portal's sign-in
     * link and code, a manage link, a confirm link): refused (403) when it comes from another site,
     * before its handler runs, as the staff API refuses cross-site writes (login CSRF).
     */
    sameOrigin?: boolean;
    /** The 413's message when the body is over the route's limit ('Request body is too large' unless set). */
    tooLargeMessage?: string;
  }
}

export {};
