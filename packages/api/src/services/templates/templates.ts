import { sql, type Db, type MarketingPackagesTable, type MarketingTemplatesTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type {
  AssignedChurch,
  packageSchema,
  templateSchema,
  packageFieldsSchema,
  templateFieldsSchema,
} from '../../schemas/templates.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { sanitizeEmailHtml } from '../email-campaigns/sanitize.js';
import { saveEmailCampaign } from '../email-campaigns/campaigns.js';
import { saveSmsCampaign } from '../sms-campaigns/campaigns.js';
import { createLandingPageFromTemplate } from '../landing-pages/pages.js';

type TemplateFields = z.output<typeof templateFieldsSchema>;
type PackageFields = z.output<typeof packageFieldsSchema>;

const toTemplate = (r: Selectable<MarketingTemplatesTable>): z.input<typeof templateSchema> => ({
  ...r,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
const toPackage = (r: Selectable<MarketingPackagesTable>): z.input<typeof packageSchema> => ({
  ...r,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** Keep only the content fields that belong to the type; HTML is sanitized. */
function contentFor(input: TemplateFields): Record<string, unknown> {
  const c = input.content ?? {};
  switch (input.type) {
    case 'email':
      return { subject: c.subject ?? '', html: sanitizeEmailHtml(c.html ?? '') };
    case 'sms':
      return { text: c.text ?? '' };
    case 'print':
      return { html: sanitizeEmailHtml(c.html ?? '') };
    case 'landing-page':
      return {
        headline: c.headline ?? '',
        subheading: c.subheading ?? '',
        mainContent: c.mainContent ?? '',
        callToAction: c.callToAction ?? '',
        keyPoints: c.keyPoints ?? [],
      };
  }
}

const templateValues = (input: TemplateFields) => ({
  name: input.name,
  description: input.description,
  category: input.category,
  type: input.type,
  thumbnail: input.thumbnail,
  content: JSON.stringify(contentFor(input)),
  isActive: input.isActive,
});

export async function listTemplates(db: Db): Promise<z.input<typeof templateSchema>[]> {
  return (
    await db.selectFrom('marketingTemplates').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()
  ).map(toTemplate);
}

export async function createTemplate(db: Db, input: TemplateFields): Promise<z.input<typeof templateSchema>> {
  const row = await db
    .insertInto('marketingTemplates')
    .values(templateValues(input))
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTemplate(row);
}

export async function updateTemplate(
  db: Db,
  { id, ...input }: TemplateFields & { id: number },
): Promise<z.input<typeof templateSchema>> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('marketingTemplates')
      .select('type')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound('Template not found');
    if (current.type !== input.type) {
      const linked = await trx
        .selectFrom('marketingPackages')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('emailTemplateId', '=', id),
            eb('smsTemplateId', '=', id),
            eb('printTemplateId', '=', id),
            eb('landingPageTemplateId', '=', id),
          ]),
        )
        .executeTakeFirst();
      if (linked) throw conflict('This template is linked from a package; unlink it before changing its type');
    }
    const row = await trx
      .updateTable('marketingTemplates')
      .set({ ...templateValues(input), updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTemplate(row);
  });
}

export async function deleteTemplate(db: Db, id: number) {
  const row = await db.deleteFrom('marketingTemplates').where('id', '=', id).returning('id').executeTakeFirst();
  if (!row) throw notFound('Template not found');
  return { id };
}

const LINKS = [
  ['emailTemplateId', 'email'],
  ['smsTemplateId', 'sms'],
  ['printTemplateId', 'print'],
  ['landingPageTemplateId', 'landing-page'],
] as const;

/** Each link must name a template of the matching type. */
async function checkLinks(db: Db, input: PackageFields) {
  for (const [field, type] of LINKS) {
    const id = input[field];
    if (id == null) continue;
    const t = await db.selectFrom('marketingTemplates').select('type').where('id', '=', id).executeTakeFirst();
    if (!t) throw notFound('Template not found');
    if (t.type !== type) throw badRequest(`Template ${id} is not a ${type} template`);
  }
}

const packageValues = (input: PackageFields) => ({
  name: input.name,
  description: input.description,
  category: input.category,
  thumbnail: input.thumbnail,
  emailTemplateId: input.emailTemplateId ?? null,
  smsTemplateId: input.smsTemplateId ?? null,
  printTemplateId: input.printTemplateId ?? null,
  landingPageTemplateId: input.landingPageTemplateId ?? null,
  isActive: input.isActive,
});

export async function listPackages(db: Db): Promise<z.input<typeof packageSchema>[]> {
  return (
    await db.selectFrom('marketingPackages').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()
  ).map(toPackage);
}

export async function createPackage(db: Db, input: PackageFields): Promise<z.input<typeof packageSchema>> {
  await checkLinks(db, input);
  return toPackage(
    await db.insertInto('marketingPackages').values(packageValues(input)).returningAll().executeTakeFirstOrThrow(),
  );
}

export async function updatePackage(
  db: Db,
  { id, ...input }: PackageFields & { id: number },
): Promise<z.input<typeof packageSchema>> {
  await checkLinks(db, input);
  const row = await db
    .updateTable('marketingPackages')
    .set({ ...packageValues(input), updatedAt: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Package not found');
  return toPackage(row);
}

export async function deletePackage(db: Db, id: number) {
  const row = await db.deleteFrom('marketingPackages').where('id', '=', id).returning('id').executeTakeFirst();
  if (!row) throw notFound('Package not found');
  return { id };
}

// Assignments

const toAssignment = (r: {
  id: number;
  userId: number;
  templateId: number | null;
  packageId: number | null;
  assignedAt: Date;
}) => ({ ...r, assignedAt: r.assignedAt });

export async function listAssignments(db: Db, userId: number) {
  return (
    await db.selectFrom('userTemplates').selectAll().where('userId', '=', userId).orderBy('assignedAt').execute()
  ).map(toAssignment);
}

/** Every church one template or package is assigned to (directly). */
export async function listAssignedChurches(
  db: Db,
  target: { templateId: number } | { packageId: number },
): Promise<AssignedChurch[]> {
  const [column, id] =
    'templateId' in target ? (['templateId', target.templateId] as const) : (['packageId', target.packageId] as const);
  const rows = await db
    .selectFrom('userTemplates')
    .select(['id as assignmentId', 'userId'])
    .where(column, '=', id)
    .orderBy('userId')
    .execute();
  if (rows.length === 0) {
    // Nothing assigned, or no such template or package (404).
    const exists =
      column === 'templateId'
        ? await db.selectFrom('marketingTemplates').select('id').where('id', '=', id).executeTakeFirst()
        : await db.selectFrom('marketingPackages').select('id').where('id', '=', id).executeTakeFirst();
    if (!exists) throw notFound(column === 'templateId' ? 'Template not found' : 'Package not found');
  }
  return rows;
}

export async function createAssignment(db: Db, input: { userId: number; templateId?: number; packageId?: number }) {
  const user = await db.selectFrom('users').select('role').where('id', '=', input.userId).executeTakeFirst();
  if (!user) throw notFound('User not found');
  if (
    input.templateId &&
    !(await db.selectFrom('marketingTemplates').select('id').where('id', '=', input.templateId).executeTakeFirst())
  )
    throw notFound('Template not found');
  if (
    input.packageId &&
    !(await db.selectFrom('marketingPackages').select('id').where('id', '=', input.packageId).executeTakeFirst())
  )
    throw notFound('Package not found');
  try {
    const row = await db
      .insertInto('userTemplates')
      .values({ userId: input.userId, templateId: input.templateId ?? null, packageId: input.packageId ?? null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAssignment(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Already assigned to this church');
    throw err;
  }
}

export async function deleteAssignment(db: Db, id: number) {
  const row = await db.deleteFrom('userTemplates').where('id', '=', id).returning('id').executeTakeFirst();
  if (!row) throw notFound('Assignment not found');
  return { id };
}

// The church's side: only what is assigned (directly or through a package) and active.

export async function churchTemplates(db: Db, tenantId: number): Promise<z.input<typeof templateSchema>[]> {
  const rows = await sql<Selectable<MarketingTemplatesTable>>`
    select t.* from marketing_templates t
    where t.is_active and (
      exists (select 1 from user_templates a where a.user_id = ${tenantId} and a.template_id = t.id)
      or exists (
        select 1 from user_templates a join marketing_packages p on p.id = a.package_id
        where a.user_id = ${tenantId} and p.is_active
          and t.id in (p.email_template_id, p.sms_template_id, p.print_template_id, p.landing_page_template_id)
      )
    )
    order by t.type, t.name`.execute(db);
  return rows.rows.map((r) => toTemplate({ ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) }));
}

export async function churchPackages(db: Db, tenantId: number) {
  const packages = await db
    .selectFrom('marketingPackages as p')
    .innerJoin('userTemplates as a', 'a.packageId', 'p.id')
    .selectAll('p')
    .where('a.userId', '=', tenantId)
    .where('p.isActive', '=', true)
    .orderBy('p.name')
    .execute();
  const ids = packages
    .flatMap((p) => [p.emailTemplateId, p.smsTemplateId, p.printTemplateId, p.landingPageTemplateId])
    .filter((x): x is number => x != null);
  const templates = ids.length
    ? await db
        .selectFrom('marketingTemplates')
        .selectAll()
        .where('id', 'in', ids)
        .where('isActive', '=', true)
        .execute()
    : [];
  const byId = new Map(templates.map((t) => [t.id, toTemplate(t)]));
  return packages.map((p) => ({
    ...toPackage(p),
    templates: [p.emailTemplateId, p.smsTemplateId, p.printTemplateId, p.landingPageTemplateId].flatMap((id) =>
      id != null && byId.has(id) ? [byId.get(id)!] : [],
    ),
  }));
}

/** 'Use': a draft in the matching tool (email or SMS campaign), or the printable page. */
export async function useTemplate(db: Db, jobs: JobQueue, tenantId: number, templateId: number) {
  const available = await churchTemplates(db, tenantId);
  const t = available.find((x) => x.id === templateId);
  if (!t) throw notFound('Template not found');
  const c = t.content as Record<string, string>;
  if (t.type === 'email') {
    const campaign = await saveEmailCampaign(db, jobs, tenantId, {
      name: t.name,
      subject: c.subject ?? '',
      content: c.html || '<p></p>',
      status: 'draft',
      listIds: [],
    });
    return { kind: 'email-campaign' as const, id: campaign.id, path: `/email-campaigns/${campaign.id}/edit` };
  }
  if (t.type === 'sms') {
    const campaign = await saveSmsCampaign(db, jobs, tenantId, {
      name: t.name,
      content: c.text || t.name,
      status: 'draft',
      listIds: [],
    });
    return { kind: 'sms-campaign' as const, id: campaign.id, path: `/sms-campaigns?edit=${campaign.id}` };
  }
  if (t.type === 'print') return { kind: 'print' as const, id: t.id, path: `/templates/${t.id}/print` };
  if (t.type === 'landing-page') {
    const page = await createLandingPageFromTemplate(db, tenantId, { name: t.name, content: t.content });
    return { kind: 'landing-page' as const, id: page.id, path: `/landing-pages/${page.id}` };
  }
  throw badRequest('This template cannot be used');
}
