import { registerChurch } from '@lampstand/server/testing';
import type { E2E } from '../helpers';

export type Account = Awaited<ReturnType<typeof registerChurch>>;

/**
 * One church with what each screen's checks look for, and the platform administrator with one
 * marketing template: the rows the widths, menus and dialogs checks used to seed on three apps.
 * One list ('Youth Parents', for email and SMS) and one 'Mary Magdalene' serve all three.
 */
export async function seedEveryScreen(e2e: E2E) {
  const admin = await registerChurch(e2e.app.url, 'Lampstand Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const c = church.client;
  const list = (await c.post('/api/contact-lists', { name: 'Youth Parents', type: 'both' })).body;
  const people = [
    { firstName: 'Bartholomew', lastName: 'Nathanael-Cana', email: 'Bartholomew@example.org', phone: '0412 000 001' },
    { firstName: 'Mary', lastName: 'Magdalene', email: 'mary@example.org', phone: '0412 000 002' },
    {
      firstName: 'Martha',
      lastName: 'Bethany',
      email: 'martha@example.org',
      phone: '0412 000 003',
      metadata: { isChurchMember: true, isBaptised: true, isSeeker: true, isServiceStaff: true },
    },
  ];
  const contacts = [];
  for (const person of people) {
    const contact = (await c.post('/api/contacts', person)).body;
    await c.post(`/api/contact-lists/${list.id}/contacts/${contact.id}`);
    contacts.push(contact);
  }
  const mary = contacts[1];
  await c.post('/api/contacts', {
    firstName: 'Lazarus',
    lastName: 'Bethany',
    email: 'lazarus@example.org',
    phone: '0412 000 004',
  });
  await c.post('/api/child-groups', { name: 'Little Lambs', ageMin: 2, ageMax: 4 });

  const email = (
    await c.post('/api/email-campaigns', {
      name: 'Harvest thanksgiving invitation',
      subject: 'Join us for harvest thanksgiving',
      content: '<p>Hello friends</p>',
      listIds: [list.id],
    })
  ).body;
  const sent = (
    await c.post('/api/email-campaigns', {
      name: 'Sent already',
      subject: 'S',
      content: '<p>Hello there friends</p>',
      listIds: [list.id],
    })
  ).body;
  await e2e.app.db.updateTable('emailCampaigns').set({ status: 'sent' }).where('id', '=', sent.id).execute();
  // Ready to send, with a long text: the list's badges beside the form are checked at 1024 and 1366 px.
  await c.post('/api/sms-campaigns', {
    name: 'Youth night reminder',
    content: `Youth night is on tonight at 7, {{firstName}}. ${'Bring a friend and a plate to share. '.repeat(3)}`,
    listIds: [list.id],
    status: 'ready',
  });
  await c.post('/api/sms-campaigns', {
    name: 'Camp forms for the winter youth camp at Lake Macquarie',
    content: `Camp forms are due Sunday. ${'Please bring them to the office. '.repeat(4)}`,
  });

  const landingPage = (
    await c.post('/api/landing-pages', {
      name: 'Easter Sunday at Grace',
      slug: 'easter-sunday-grace',
      published: true,
      content: {
        blocks: [
          { id: 'hero', type: 'hero', headline: 'Easter at Grace', subheading: 'All welcome' },
          { id: 'form', type: 'signup', title: 'Register interest', fields: ['phone'] },
        ],
      },
    })
  ).body;
  // A sign-up awaiting confirmation, for the page's stats.
  await fetch(`${e2e.app.url}/p/easter-sunday-grace/signup/form`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Firefox/131.0' },
    body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org', phone: '0499 999 999' }),
  });
  await c.post('/api/qr-codes', { name: 'Welcome card', url: 'https://example.org/welcome' });
  const sunday = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const plan = (await c.post('/api/service-planner/plans', { title: 'Sunday Morning Worship', date: sunday })).body;
  await c.post('/api/service-planner/songs', { title: 'Amazing Grace', artist: 'John Newton' });
  await c.post('/api/service-planner/members', { name: 'Fay Organist', email: 'fay@example.org' });
  await admin.client.post('/api/admin/marketing-templates', {
    name: 'Welcome Sunday',
    type: 'landing-page',
    category: 'welcome',
    content: { headline: 'Welcome home', subheading: 'Come as you are', keyPoints: ['Friendly people'] },
  });
  const project = (
    await c.post('/api/show-up/projects', {
      title: 'Food bank freezer',
      shortDescription: 'A chest freezer for the food bank.',
      description: 'A chest freezer so the food bank can take frozen donations from the supermarkets nearby.',
      location: 'Springfield, IL',
      targetAmount: 1000,
      category: 'community',
      organizationName: 'Grace Church',
      contactEmail: 'office@grace.example.org',
      startDate: '2026-11-01',
      endDate: '2030-03-01',
    })
  ).body;
  // An unsubscribe link, as a sent campaign's email carries it.
  const unsubscribeToken = 'a'.repeat(64);
  await e2e.app.db
    .insertInto('deliveries')
    .values({
      userId: church.user.id,
      contactId: mary.id,
      channel: 'email',
      campaignId: email.id,
      address: 'mary@example.org',
      token: unsubscribeToken,
    })
    .execute();

  return {
    admin,
    church,
    ids: {
      list: list.id as number,
      landingPage: landingPage.id as number,
      plan: plan.id as number,
      sent: sent.id as number,
      project: project.id as number,
    },
    unsubscribeToken,
  };
}

export type Seed = Awaited<ReturnType<typeof seedEveryScreen>>;
