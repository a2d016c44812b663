/** The staff session's cookie: set by the server's session plugin, read by the REST shim. */
export const SESSION_COOKIE = 'lampstand.sid';
