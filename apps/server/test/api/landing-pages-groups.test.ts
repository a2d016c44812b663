import { describe, expect, it } from 'vitest';
import { registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { giveHandle } from '../helpers/portal.js';

// A landing page's Groups block: the church's groups taking new members, as the finder shows them
// (no address, no leaders), with a link to its finder; never another church's groups.
const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
await giveHandle(app.db, grace.user.id, 'grace-block');

const group = async (client: typeof grace.client, fields: Record<string, unknown>) => {
  const res = await client.post('/api/groups', fields);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
};
await group(grace.client, {
  name: 'Tuesday Night',
  type: 'Small group',
  weekday: 2,
  time: '19:00',
  address: '12 Hidden Lane',
  area: 'Northside',
  joinMode: 'open',
});
await group(grace.client, { name: 'Youth Class', type: 'Class', frequency: 'by_arrangement', joinMode: 'request' });
await group(grace.client, { name: 'Closed Team', type: 'Team', frequency: 'by_arrangement', joinMode: 'closed' });
const old = await group(grace.client, { name: 'Old Group', frequency: 'by_arrangement', joinMode: 'open' });
await grace.client.delete(`/api/groups/${old.id}`);
await group(hope.client, { name: 'Hope Group', frequency: 'by_arrangement', joinMode: 'open' });

let n = 0;
async function publish(client: typeof grace.client, blocks: unknown[]) {
  const res = await client.post('/api/landing-pages', {
    name: 'Groups',
    slug: `groups-${Date.now().toString(36)}-${n++}`,
    published: true,
    content: { blocks },
  });
  expect(res.status, res.text).toBe(201);
  return (await fetch(`${app.url}/p/${res.body.slug}`)).text();
}
const section = (html: string, id: string) => new RegExp(`<section id="${id}">.*?</section>`).exec(html)?.[0] ?? '';

describe('the Groups block of landing pages', () => {
  it("lists the church's groups taking new members with a link to the finder", async () => {
    const html = await publish(grace.client, [{ id: 'g', type: 'groups', title: 'Join a group' }]);
    const block = section(html, 'g');
    expect(block).toContain('<h2>Join a group</h2>');
    expect(block).toContain('<li><strong>Tuesday Night</strong> · Tuesdays at 7:00 PM · Northside</li>');
    expect(block).toContain('<li><strong>Youth Class</strong> · By arrangement</li>');
    expect(block).toContain('<a class="btn" href="/c/grace-block/groups">Find a group and ask to join</a>');
    for (const absent of ['Closed Team', 'Old Group', 'Hope Group', 'Hidden Lane']) expect(block).not.toContain(absent);
  });

  it('shows only the type chosen, and says so when none is taking new members', async () => {
    const html = await publish(grace.client, [
      { id: 'classes', type: 'groups', title: 'Classes', groupType: 'class' },
      { id: 'teams', type: 'groups', title: 'Teams', groupType: 'Team' },
    ]);
    expect(section(html, 'classes')).toContain('Youth Class');
    expect(section(html, 'classes')).not.toContain('Tuesday Night');
    expect(section(html, 'teams')).toContain('No group is taking new members at the moment.');
  });

  it('has no finder link for a church without a public handle, and lists only its own groups', async () => {
    const block = section(await publish(hope.client, [{ id: 'g', type: 'groups' }]), 'g');
    expect(block).toContain('<h2>Find a group</h2>');
    expect(block).toContain('Hope Group');
    expect(block).not.toContain('Tuesday Night');
    expect(block).not.toContain('href=');
  });

  it('refuses a title over 200 characters, naming the field', async () => {
    const res = await grace.client.post('/api/landing-pages', {
      name: 'Bad',
      slug: `bad-${Date.now().toString(36)}`,
      content: { blocks: [{ id: 'g', type: 'groups', title: 'x'.repeat(201) }] },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Title');
  });
});
