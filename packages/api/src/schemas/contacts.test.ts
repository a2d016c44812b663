import { describe, expect, it } from 'vitest';
import { contactFormSchema, updateContactSchema } from './contacts.js';
import { ageFromDateOfBirth } from '../shared/contacts.js';

describe('ageFromDateOfBirth', () => {
  it('counts whole years, turning a year older on the birthday', () => {
    expect(ageFromDateOfBirth('2018-03-04', new Date(2026, 2, 3))).toBe(7);
    expect(ageFromDateOfBirth('2018-03-04', new Date(2026, 2, 4))).toBe(8);
    expect(ageFromDateOfBirth('2018-03-04', new Date(2027, 0, 1))).toBe(8);
    expect(ageFromDateOfBirth('2030-01-01', new Date(2026, 0, 1))).toBeNull();
    expect(ageFromDateOfBirth('2018-02-30', new Date(2026, 0, 1))).toBeNull();
  });
});

describe('contact schemas', () => {
  it('the form reads a DD/MM/YYYY date of birth and drops one it cannot read', () => {
    const base = { firstName: 'A', lastName: 'B', email: 'a@b.org', phone: '0412 345 678' };
    expect(contactFormSchema.parse({ ...base, metadata: { dateOfBirth: '31/12/1990' } }).metadata.dateOfBirth).toBe(
      '1990-12-31',
    );
    expect(contactFormSchema.parse({ ...base, metadata: { dateOfBirth: '31/02/1990' } }).metadata.dateOfBirth).toBe(
      null,
    );
  });

  it('a PATCH fills no defaults into fields it was not sent', () => {
    expect(updateContactSchema.parse({ id: 1, metadata: { notes: 'x' } })).toEqual({ id: 1, metadata: { notes: 'x' } });
    expect(updateContactSchema.parse({ id: 1, lastName: ' Jones ' })).toEqual({ id: 1, lastName: 'Jones' });
  });
});
