import { describe, expect, it } from 'vitest';
import { loginSchema, registerFormSchema, registerSchema } from './auth.js';

const valid = {
  username: 'grace',
  password: 'secret12',
  confirmPassword: 'secret12',
  churchName: 'Grace Church',
  email: 'office@grace.org',
};

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const i of result.error?.issues ?? []) out[i.path.join('.')] ??= i.message; // the first message per field
  return out;
}

describe('auth schemas', () => {
  it('login needs both fields, with the spec messages', () => {
    expect(messages(loginSchema.safeParse({ username: '', password: '' }))).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
    expect(loginSchema.safeParse({ username: 'a', password: 'b' }).success).toBe(true);
  });

  it('register form: confirmPassword length and match, shown on confirmPassword', () => {
    expect(messages(registerFormSchema.safeParse({ ...valid, confirmPassword: 'abc' }))).toMatchObject({
      confirmPassword: 'Password must be at least 6 characters',
    });
    expect(messages(registerFormSchema.safeParse({ ...valid, confirmPassword: 'secret13' }))).toEqual({
      confirmPassword: 'Passwords do not match',
    });
    expect(registerFormSchema.safeParse(valid).success).toBe(true);
  });

  it('register trims names and rejects a bad email', () => {
    const parsed = registerSchema.parse({ ...valid, username: '  grace  ', churchName: ' Grace ' });
    expect(parsed.username).toBe('grace');
    expect(parsed.churchName).toBe('Grace');
    expect(messages(registerSchema.safeParse({ ...valid, email: 'nope' }))).toEqual({
      email: 'Please enter a valid email address',
    });
  });
});
