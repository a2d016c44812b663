import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeOpenAi } from '../helpers/fake-openai.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { withGeneratedCopy } from '@lampstand/api/render/generated-copy';

const openai = await startFakeOpenAi({ apiKey: 'sk-test-key' });
afterAll(() => openai.close());
const app = await startTestApp({
  openaiApiKey: 'sk-test-key',
  openaiBaseUrl: openai.baseURL,
  openaiModel: 'test-model',
  openaiTimeoutMs: 1500,
  aiGenerationsPerHour: 8,
});

const input = {
  churchName: 'Grace Church',
  purpose: 'event',
  topic: 'Easter Sunday service',
  targetAudience: 'families',
  additionalInfo: 'Egg hunt at 9am',
};
const page = {
  headline: 'Celebrate Easter with Us',
  subheading: 'A joyful morning for the whole family.',
  mainContent: 'Join us this Easter.\n\nThere is something for everyone.',
  callToAction: 'Plan your visit',
  keyPoints: ['Egg hunt at 9am', 'Family service', 'Coffee after'],
};

describe('AI copy through the openai SDK', () => {
  it('validates the generator form with the spec messages', async () => {
    const { client } = await registerChurch(app.url);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...input, churchName: '' }, 'Church name is required'],
      [{ ...input, purpose: '' }, 'Purpose is required'],
      [{ ...input, topic: ' ' }, 'Topic is required'],
      [{ ...input, targetAudience: undefined }, 'Target audience is required'],
    ];
    for (const [body, message] of cases) {
      const res = await client.post('/api/ai-generator/landing-page', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const badSection = await client.post('/api/ai-generator/section', { churchName: 'G', section: 'footer' });
    expect(badSection.status).toBe(400);
    expect(openai.requests).toHaveLength(0);
  });

  it('returns the whole content object from a structured answer and records the token use', async () => {
    const { client, user } = await registerChurch(app.url);
    openai.reply({ kind: 'json', content: JSON.stringify(page), promptTokens: 321, completionTokens: 123 });
    const res = await client.post('/api/ai-generator/landing-page', input);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(page);
    const sent = openai.requests.at(-1)!;
    expect(sent.model).toBe('test-model');
    expect(sent.response_format?.type).toBe('json_schema');
    expect(sent.response_format?.json_schema?.name).toBe('landing_page');
    expect(sent.messages[1]!.content).toContain('Easter Sunday service');
    expect(sent.messages[1]!.content).toContain('Egg hunt at 9am');
    const rows = await app.db.selectFrom('aiGenerations').selectAll().where('userId', '=', user.id).execute();
    expect(rows).toMatchObject([
      { kind: 'landing-page', model: 'test-model', ok: true, promptTokens: 321, completionTokens: 123 },
    ]);
  });

  it('drops blank key points, and the copy keeps the page order on the published page', async () => {
    const { client } = await registerChurch(app.url);
    openai.reply({
      kind: 'json',
      content: JSON.stringify({
        ...page,
        keyPoints: ['Egg hunt at 9am', '  ', ' Family service ', '', 'Coffee after'],
      }),
    });
    const res = await client.post('/api/ai-generator/landing-page', input);
    expect(res.status).toBe(200);
    expect(res.body.keyPoints).toEqual(['Egg hunt at 9am', 'Family service', 'Coffee after']);

    // A page with a hero and a sign-up form: the generated blocks go between them, in the spec's order.
    const made = await client.post('/api/landing-pages', {
      name: 'Easter',
      slug: `easter-${Date.now()}`,
      published: true,
      content: {
        blocks: [
          { id: 'top', type: 'hero', headline: 'Easter', subheading: '', backgroundImage: null },
          {
            id: 'form',
            type: 'signup',
            title: 'Stay in touch',
            description: '',
            buttonText: 'Sign up',
            listId: null,
            fields: [],
          },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    let n = 0;
    const blocks = withGeneratedCopy(made.body.content.blocks, res.body, () => `gen${++n}`);
    const saved = await client.put(`/api/landing-pages/${made.body.id}`, {
      name: 'Easter',
      slug: made.body.slug,
      published: true,
      content: { blocks },
    });
    expect(saved.status, saved.text).toBe(200);
    const html = await (await fetch(`${app.url}/p/${made.body.slug}`)).text();
    const order = [page.headline, page.callToAction, 'Join us this Easter.', 'Egg hunt at 9am', 'Stay in touch'].map(
      (text) => html.indexOf(text),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(html).toContain('<ol class="kp"><li>Egg hunt at 9am</li><li>Family service</li><li>Coffee after</li></ol>');
  });

  it('regenerates one section', async () => {
    const { client } = await registerChurch(app.url);
    openai.reply({ kind: 'json', content: JSON.stringify({ content: 'A New Headline' }) });
    const res = await client.post('/api/ai-generator/section', {
      churchName: 'Grace Church',
      section: 'keyPoint-2',
      context: 'Easter page',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: 'A New Headline' });
    expect(openai.requests.at(-1)!.messages[1]!.content).toContain('one short key point');
  });

  it('asks once more after a malformed answer, then fails with the spec message', async () => {
    const { client } = await registerChurch(app.url);
    openai.reply(
      { kind: 'json', content: 'Sure! Here is your page: {' },
      { kind: 'json', content: JSON.stringify(page) },
    );
    const retried = await client.post('/api/ai-generator/landing-page', input);
    expect(retried.status).toBe(200);
    expect(retried.body.headline).toBe(page.headline);

    openai.reply(
      { kind: 'json', content: JSON.stringify({ headline: 'Only a headline' }) },
      { kind: 'json', content: 'not json' },
    );
    const failed = await client.post('/api/ai-generator/landing-page', input);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('Failed to generate content');
  });

  it('fails with the spec message on a server error (after the SDK retry) and on a timeout', async () => {
    const { client } = await registerChurch(app.url);
    openai.reply({ kind: 'error', status: 500, message: 'boom' }, { kind: 'error', status: 500, message: 'boom' });
    const before = openai.requests.length;
    const res = await client.post('/api/ai-generator/section', { churchName: 'G', section: 'headline', context: '' });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Failed to generate content');
    expect(openai.requests.length - before).toBe(2); // the SDK retried once

    openai.reply({ kind: 'hang' }, { kind: 'hang' });
    const slow = await client.post('/api/ai-generator/section', { churchName: 'G', section: 'headline', context: '' });
    expect(slow.status).toBe(502);
    expect(slow.body.message).toBe('Failed to generate content');
  });

  it('limits each church per hour with a clear 429', async () => {
    const { client } = await registerChurch(app.url);
    for (let i = 0; i < 8; i++) openai.reply({ kind: 'json', content: JSON.stringify({ content: `Text ${i}` }) });
    for (let i = 0; i < 8; i++)
      expect((await client.post('/api/ai-generator/section', { churchName: 'G', section: 'subheading' })).status).toBe(
        200,
      );
    const status = await client.get('/api/ai-generator/status');
    expect(status.body).toEqual({ enabled: true, remaining: 0 });
    const limited = await client.post('/api/ai-generator/section', { churchName: 'G', section: 'subheading' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(
      'Your church has used its 8 AI generations for this hour. Please try again later.',
    );
    // Another church is not affected.
    const other = await registerChurch(app.url);
    expect((await other.client.get('/api/ai-generator/status')).body.remaining).toBe(8);
  });
});

describe('AI copy for Announce (service planner)', () => {
  const words = {
    emailSubject: 'Come home for Harvest Sunday',
    emailParagraphs: ['We are giving thanks together.', 'Bring a friend and a dish to share.'],
    sms: 'Grace Church: Harvest Sunday this Sunday 10 AM, Town hall. Come give thanks with us!',
    social: 'Harvest Sunday is coming! Give thanks with us at the Town hall.',
    headline: 'Give Thanks Together',
    subheading: 'Harvest Sunday at Grace Church',
    mainContent: 'A morning of gratitude.\n\nFood, songs and friends.',
    keyPoints: ['Family friendly', 'Shared lunch'],
  };
  async function planOf(client: Awaited<ReturnType<typeof registerChurch>>['client']) {
    const res = await client.post('/api/service-planner/plans', {
      title: 'Harvest Sunday',
      date: '2030-05-05',
      startTime: '10:00',
      location: 'Town hall',
      theme: 'Thankful hearts',
    });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  }

  it('writes every draft with the model words, from the plan facts only, and counts one generation', async () => {
    const { client, user } = await registerChurch(app.url, 'Grace Church');
    const p = await planOf(client);
    openai.reply({ kind: 'json', content: JSON.stringify(words) });
    const res = await client.post(`/api/service-planner/plans/${p.id}/announce`, {});
    expect(res.status).toBe(201);
    expect(res.body.copy).toBe('ai');
    const sent = openai.requests.at(-1)!;
    expect(sent.response_format?.json_schema?.name).toBe('announcement');
    expect(sent.messages[0]!.content).toContain('never invent');
    expect(sent.messages[1]!.content).toContain('Harvest Sunday');
    expect(sent.messages[1]!.content).toContain('Town hall');
    expect(sent.messages[1]!.content).toContain('Thankful hearts');

    const [email, sms, landing, social] = res.body.drafts;
    const ec = (await client.get(`/api/email-campaigns/${email.targetId}`)).body;
    expect(ec.subject).toBe(words.emailSubject);
    expect(ec.content).toContain('<p>Bring a friend and a dish to share.</p>');
    expect((await client.get(`/api/sms-campaigns/${sms.targetId}`)).body.content).toBe(words.sms);
    const lp = (await client.get(`/api/landing-pages/${landing.targetId}`)).body;
    expect(lp.content.headline).toBe(words.headline);
    expect(lp.content.keyPoints).toEqual(words.keyPoints);
    expect(lp.content.blocks.find((b: { type: string }) => b.type === 'event').date).toBe('2030-05-05');
    const post = (await client.get('/api/social-posts')).body.find((x: { id: number }) => x.id === social.targetId);
    expect(post).toMatchObject({ content: words.social, status: 'draft' });
    const used = await app.db.selectFrom('aiGenerations').selectAll().where('userId', '=', user.id).execute();
    expect(used.map((u) => [u.kind, u.ok])).toEqual([['announce', true]]);
  });

  it('falls back to the plain templates when the model answers badly twice; the drafts are still made', async () => {
    const { client } = await registerChurch(app.url, 'Grace Church');
    const p = await planOf(client);
    openai.reply({ kind: 'json', content: '{"emailSubject": 1}' }, { kind: 'json', content: 'not json' });
    const res = await client.post(`/api/service-planner/plans/${p.id}/announce`, {});
    expect(res.status).toBe(201);
    expect(res.body.copy).toBe('template');
    expect(res.body.drafts).toHaveLength(4);
    const ec = (await client.get(`/api/email-campaigns/${res.body.drafts[0].targetId}`)).body;
    expect(ec.subject).toBe('Harvest Sunday: Sunday, May 5, 2030 at 10:00 AM');
  });
});

describe('AI copy without a key or base URL', () => {
  it('is reported disabled and refuses with what to set; nothing pretends to be AI', async () => {
    // The worker's shared app: default settings, no AI key.
    const plain = await sharedTestApp();
    const { client } = await registerChurch(plain.url);
    expect((await client.get('/api/ai-generator/status')).body).toEqual({ enabled: false, remaining: 30 });
    const res = await client.post('/api/ai-generator/landing-page', input);
    expect(res.status).toBe(503);
    expect(res.body.message).toBe("AI writing isn't available yet — ask your administrator to turn it on.");
  });
});
