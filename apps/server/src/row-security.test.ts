import { describe, expect, it } from 'vitest';
import { rowSecurityVerdict } from './row-security.js';

// Row-level security on but not enforced stops the start; in production, so does an
// app logged in as the tables' owner.
describe('row-level security at start', () => {
  it('enforced: starts quietly', () => {
    expect(rowSecurityVerdict('enforced', 'lampstand_app', true)).toBeNull();
  });
  it('on but not enforced: refused, in development too', () => {
    expect(() => rowSecurityVerdict('not-enforced', 'app', false)).toThrow(
      /^Row-level security is on but does not apply/,
    );
  });
  it('logged in as the owner: refused in production, a warning elsewhere', () => {
    expect(() => rowSecurityVerdict('climbable', 'postgres', true)).toThrow(
      /^In production the app must log in as its own role: the database user 'postgres' owns the tables/,
    );
    expect(rowSecurityVerdict('climbable', 'postgres', false)).toMatch(/DATABASE_OWNER_URL/);
  });
  it('RLS=off: said at start', () => {
    expect(rowSecurityVerdict('off', 'postgres', true)).toMatch(/Row-level security is OFF/);
  });
});
