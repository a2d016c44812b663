import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import type { EventOut } from '@lampstand/api/schemas/events';
import { actorWords, eventWords } from './activity-words';

// Each journey step reads as a sentence in the person's Activity.
const words = (type: string, data: Record<string, unknown>) => {
  const e: EventOut = {
    id: 1,
    type,
    version: 1,
    occurredAt: '2026-12-01T15:00:00Z',
    contactId: 1,
    actor: { kind: 'system', id: null },
    data,
  };
  const html = renderToString(
    <MantineProvider>
      <MemoryRouter>{eventWords(e)}</MemoryRouter>
    </MantineProvider>,
  );
  // The text of the sentence (Mantine's provider adds a <style> first).
  return html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, '')
    .trim();
};

const journey = { id: 4, name: 'Welcome a first-time guest' };

describe('journey events in words', () => {
  it('reads as the issue writes them', () => {
    expect(words('journey.entered', { journey, enrollmentId: 1, version: 1, test: false })).toBe(
      'Entered Welcome a first-time guest',
    );
    expect(
      words('journey.step_done', {
        journey,
        enrollmentId: 1,
        step: { id: 's', kind: 'sms', name: 'Day 2 text' },
        outcome: 'done',
        detail: 'Text sent',
      }),
    ).toBe('Sent Day 2 text');
    expect(words('task.assigned', { task: { id: 9, name: 'Call Maria' }, assignee: 'Pastor John', journey })).toBe(
      'Task Call Maria assigned to Pastor John',
    );
    expect(
      words('journey.step_done', {
        journey,
        enrollmentId: 1,
        step: { id: 'm', kind: 'email', name: 'Welcome' },
        outcome: 'skipped',
        detail: 'Unsubscribed from email',
      }),
    ).toBe('Skipped Welcome in Welcome a first-time guest: Unsubscribed from email');
    expect(words('journey.exited', { journey, enrollmentId: 1, reason: 'Contact deleted' })).toBe(
      'Left Welcome a first-time guest: Contact deleted',
    );
  });
});

describe('registration events in words', () => {
  it('names the event', () => {
    const calendarEvent = { id: 3, name: 'Harvest supper' };
    const created = { calendarEvent, registrationId: 1, attendees: 2, amountCents: 0, currency: 'usd' };
    expect(words('registration.created', { ...created, status: 'confirmed' })).toBe('Registered for Harvest supper');
    expect(words('registration.created', { ...created, status: 'waitlisted' })).toBe(
      'Joined the waitlist of Harvest supper',
    );
    expect(words('registration.confirmed', created)).toBe('Registration for Harvest supper confirmed');
    expect(words('registration.checked_in', { calendarEvent, registrationId: 1, attendees: ['Ann'] })).toBe(
      'Arrived at Harvest supper',
    );
    expect(words('registration.cancelled', { calendarEvent, registrationId: 1, refundCents: 0, currency: 'usd' })).toBe(
      'Registration for Harvest supper cancelled',
    );
  });
});

describe('who did it', () => {
  const by = (actor: EventOut['actor']) =>
    actorWords({ id: 1, type: 'list.member_removed', version: 1, occurredAt: '', contactId: 1, actor, data: {} });
  it('names the person in the portal and the staff account, when the log knows them', () => {
    expect(by({ kind: 'portal', id: 7, name: 'Ann Lee' })).toBe('by Ann Lee, in the portal');
    expect(by({ kind: 'portal', id: 7, name: null })).toBe('in the portal');
    expect(by({ kind: 'user', id: 2, name: 'grace' })).toBe('by grace (staff)');
    expect(by({ kind: 'user', id: 2 })).toBe('by staff');
    expect(by({ kind: 'public', id: null })).toBeNull();
  });
});

describe('details updated', () => {
  it('names the fields as the form does', () => {
    expect(words('contact.updated', { changed: ['phone', 'address', 'postalCode', 'somethingNew'] })).toBe(
      'Details updated: phone, street address, postcode, somethingNew',
    );
  });
});
