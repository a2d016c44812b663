import { beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/route-list.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform');
const a = await registerChurch(app.url, 'Church A');
const b = await registerChurch(app.url, 'Church B');

const emailTemplate = {
  name: 'Christmas invite',
  type: 'email',
  category: 'christmas',
  description: 'Carols night',
  content: {
    subject: 'Carols at {{churchName}}',
    html: '<p>Hi {{firstName}}, join us for carols.</p><script>x()</script>',
  },
};

describe('admin: marketing templates and packages', () => {
  it('every admin endpoint answers 403 to a church and 401 to a visitor', async () => {
    // Every route of the admin templates router, from the route table (GET /api/admin/assignments
    // answers 403 before it reads its userId).
    const paths = restRoutes
      .filter((r) => r.procedure.startsWith('adminTemplates.'))
      .map((r) => [r.method, r.path.replace(/\{\w+\}/g, '1')] as const);
    expect(paths).toHaveLength(13);
    for (const [method, path] of paths) {
      expect(
        (await a.client.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {})).status,
        `${method} ${path}`,
      ).toBe(403);
      expect(
        (await new HttpClient(app.url).request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}))
          .status,
        `${method} ${path}`,
      ).toBe(401);
    }
  });

  it('validates with the spec messages and keeps real content on edit', async () => {
    const bad = await admin.client.post('/api/admin/marketing-templates', { type: 'email', category: 'general' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Name is required');
    expect(
      (await admin.client.post('/api/admin/marketing-templates', { name: 'x', category: 'general' })).body.message,
    ).toBe('Type is required');
    expect((await admin.client.post('/api/admin/marketing-templates', { name: 'x', type: 'sms' })).body.message).toBe(
      'Category is required',
    );

    const created = await admin.client.post('/api/admin/marketing-templates', emailTemplate);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Christmas invite',
      type: 'email',
      isActive: true,
      content: { subject: 'Carols at {{churchName}}' },
    });
    expect(created.body.content.html).not.toContain('<script>');
    const edited = await admin.client.put(`/api/admin/marketing-templates/${created.body.id}`, {
      ...emailTemplate,
      name: 'Christmas invite 2',
      isActive: false,
      content: { ...emailTemplate.content, subject: 'New subject' },
    });
    expect(edited.body).toMatchObject({
      name: 'Christmas invite 2',
      isActive: false,
      content: { subject: 'New subject', html: '<p>Hi {{firstName}}, join us for carols.</p>' },
    });
    // An edit that does not touch content keeps it (no placeholder overwrite).
    const again = await admin.client.put(`/api/admin/marketing-templates/${created.body.id}`, {
      ...emailTemplate,
      content: edited.body.content,
    });
    expect(again.body.content).toEqual(edited.body.content);
  });

  it('packages link only templates of the matching type; None clears a link', async () => {
    const email = (await admin.client.post('/api/admin/marketing-templates', emailTemplate)).body;
    const sms = (
      await admin.client.post('/api/admin/marketing-templates', {
        name: 'Text',
        type: 'sms',
        category: 'christmas',
        content: { text: 'Carols tonight!' },
      })
    ).body;
    const wrong = await admin.client.post('/api/admin/marketing-packages', {
      name: 'P',
      category: 'christmas',
      emailTemplateId: sms.id,
    });
    expect(wrong.status).toBe(400);
    const pkg = await admin.client.post('/api/admin/marketing-packages', {
      name: 'Christmas pack',
      category: 'christmas',
      emailTemplateId: email.id,
      smsTemplateId: sms.id,
    });
    expect(pkg.status).toBe(201);
    const cleared = await admin.client.put(`/api/admin/marketing-packages/${pkg.body.id}`, {
      name: 'Christmas pack',
      category: 'christmas',
      emailTemplateId: email.id,
      smsTemplateId: null,
    });
    expect(cleared.body).toMatchObject({ emailTemplateId: email.id, smsTemplateId: null });
    expect((await admin.client.post('/api/admin/marketing-packages', { category: 'christmas' })).body.message).toBe(
      'Name is required',
    );
  });
});

describe('assignment and what churches see', () => {
  it('church A sees what was assigned to A (directly or by active package), not B; Use starts a draft', async () => {
    const t1 = (await admin.client.post('/api/admin/marketing-templates', { ...emailTemplate, name: 'For A' })).body;
    const t2 = (await admin.client.post('/api/admin/marketing-templates', { ...emailTemplate, name: 'For B' })).body;
    const inPkg = (
      await admin.client.post('/api/admin/marketing-templates', {
        name: 'Pkg SMS',
        type: 'sms',
        category: 'easter',
        content: { text: 'He is risen, {{firstName}}!' },
      })
    ).body;
    const inactive = (
      await admin.client.post('/api/admin/marketing-templates', { ...emailTemplate, name: 'Inactive', isActive: false })
    ).body;
    const pkg = (
      await admin.client.post('/api/admin/marketing-packages', {
        name: 'Easter pack',
        category: 'easter',
        smsTemplateId: inPkg.id,
      })
    ).body;

    const assignA = await admin.client.post('/api/admin/assignments', { userId: a.user.id, templateId: t1.id });
    expect(assignA.status).toBe(201);
    await admin.client.post('/api/admin/assignments', { userId: a.user.id, packageId: pkg.id });
    await admin.client.post('/api/admin/assignments', { userId: a.user.id, templateId: inactive.id });
    await admin.client.post('/api/admin/assignments', { userId: b.user.id, templateId: t2.id });
    expect((await admin.client.post('/api/admin/assignments', { userId: a.user.id, templateId: t1.id })).status).toBe(
      409,
    );
    expect(
      (await admin.client.post('/api/admin/assignments', { userId: a.user.id, templateId: t1.id, packageId: pkg.id }))
        .status,
    ).toBe(400);

    const seenByA = (await a.client.get('/api/templates')).body.map((t: { name: string }) => t.name).sort();
    expect(seenByA).toEqual(['For A', 'Pkg SMS']);
    expect((await b.client.get('/api/templates')).body.map((t: { name: string }) => t.name)).toEqual(['For B']);
    const packagesA = (await a.client.get('/api/packages')).body;
    expect(
      packagesA.map((p: { name: string; templates: { name: string }[] }) => [p.name, p.templates.map((t) => t.name)]),
    ).toEqual([['Easter pack', ['Pkg SMS']]]);
    expect((await b.client.get('/api/packages')).body).toEqual([]);

    const used = await a.client.post(`/api/templates/${t1.id}/use`);
    expect(used.body).toMatchObject({
      kind: 'email-campaign',
      path: expect.stringMatching(/^\/email-campaigns\/\d+\/edit$/),
    });
    const draft = (await a.client.get(`/api/email-campaigns/${used.body.id}`)).body;
    expect(draft).toMatchObject({ name: 'For A', subject: 'Carols at {{churchName}}', status: 'draft' });
    expect(draft.content).toContain('join us for carols');
    expect((await b.client.post(`/api/templates/${t1.id}/use`)).status).toBe(404);
    const smsUse = await a.client.post(`/api/templates/${inPkg.id}/use`);
    expect(smsUse.body.kind).toBe('sms-campaign');

    const listA = (await admin.client.get(`/api/admin/assignments?userId=${a.user.id}`)).body;
    expect(listA).toHaveLength(3);
    expect((await admin.client.delete(`/api/admin/assignments/${assignA.body.id}`)).status).toBe(200);
    expect((await a.client.get('/api/templates')).body.map((t: { name: string }) => t.name)).toEqual(['Pkg SMS']);
    // Deactivating the package hides its templates.
    await admin.client.put(`/api/admin/marketing-packages/${pkg.id}`, {
      name: 'Easter pack',
      category: 'easter',
      smsTemplateId: inPkg.id,
      isActive: false,
    });
    expect((await a.client.get('/api/templates')).body).toEqual([]);
  });
});

describe('assigning to 200 churches', () => {
  let churchIds: number[] = [];
  // Churches written straight to the table: 200 registrations would spend most of the test hashing passwords.
  beforeAll(async () => {
    const { passwordHash } = await app.db.selectFrom('users').select('passwordHash').executeTakeFirstOrThrow();
    churchIds = (
      await app.db
        .insertInto('users')
        .values(
          Array.from({ length: 200 }, (_, i) => ({
            username: `many_${i}`,
            email: `many_${i}@example.org`,
            churchName: `Many Church ${i}`,
            passwordHash,
            role: 'church' as const,
          })),
        )
        .returning('id')
        .execute()
    ).map((r) => r.id);
  });

  it('lists the churches of a template and of a package in one request, and unassigns', async () => {
    const template = (await admin.client.post('/api/admin/marketing-templates', { ...emailTemplate, name: 'Wide' }))
      .body;
    const pkg = (await admin.client.post('/api/admin/marketing-packages', { name: 'Wide pack', category: 'easter' }))
      .body;
    const empty = await admin.client.get(`/api/admin/marketing-templates/${template.id}/churches`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);

    for (const userId of churchIds) {
      expect((await admin.client.post('/api/admin/assignments', { userId, templateId: template.id })).status).toBe(201);
    }
    await admin.client.post('/api/admin/assignments', { userId: churchIds[7], packageId: pkg.id });

    const assigned = await admin.client.get(`/api/admin/marketing-templates/${template.id}/churches`);
    expect(assigned.status).toBe(200);
    expect(assigned.body.map((r: { userId: number }) => r.userId)).toEqual(churchIds);
    const byPackage = (await admin.client.get(`/api/admin/marketing-packages/${pkg.id}/churches`)).body;
    expect(byPackage).toEqual([{ assignmentId: expect.any(Number), userId: churchIds[7] }]);

    const first = assigned.body[0] as { assignmentId: number; userId: number };
    expect((await admin.client.delete(`/api/admin/assignments/${first.assignmentId}`)).status).toBe(200);
    const after = (await admin.client.get(`/api/admin/marketing-templates/${template.id}/churches`)).body;
    expect(after).toHaveLength(199);
    expect(after.map((r: { userId: number }) => r.userId)).not.toContain(first.userId);

    expect((await admin.client.get('/api/admin/marketing-templates/999999/churches')).status).toBe(404);
    expect((await admin.client.get('/api/admin/marketing-packages/999999/churches')).body.message).toBe(
      'Package not found',
    );
  }, 90_000);

  it('answers a batched tRPC GET of 10 procedures (no 414), and refuses 200 in one batch', async () => {
    const url = (ids: number[]) =>
      `/trpc/${ids.map(() => 'adminTemplates.assignments').join(',')}?batch=1&input=${encodeURIComponent(
        JSON.stringify(Object.fromEntries(ids.map((userId, i) => [i, { userId }]))),
      )}`;
    // Ten names are past Fastify's default path parameter of 100 characters.
    const ten = url(churchIds.slice(0, 10));
    expect(ten.split('?')[0]!.length).toBeGreaterThan(100);
    const res = await admin.client.get(ten);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.body[7].result.data.length).toBeGreaterThan(0);
    // A batch holds at most 10 calls (the web client sends at most 10).
    const all = await admin.client.get(url(churchIds));
    expect(all.status).toBe(400);
    expect(all.body).toEqual({ message: 'A request may batch at most 10 calls', code: 'BAD_REQUEST' });
  });
});
