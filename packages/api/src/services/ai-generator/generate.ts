import type { Db } from '@lampstand/db';
import { AppError } from '../../errors.js';
import { attemptsLeft, throttle, type BucketRule } from '../rate-limit/buckets.js';
import type { AiProvider } from '../../providers/ai.js';
import { aiPageAnswerSchema, aiSectionAnswerSchema } from '../../schemas/landing-pages.js';
import { aiAnnounceAnswerSchema, type AiAnnounceAnswer } from '../../schemas/service-planner.js';
import { z } from 'zod';

const GENERATE_FAILED = 'Failed to generate content';
/** What a church reads; the server's log at start names the setting (OPENAI_API_KEY) for the administrator. */
const AI_NOT_CONFIGURED = "AI writing isn't available yet — ask your administrator to turn it on.";

export interface AiDeps {
  db: Db;
  ai: AiProvider | null;
  /** Generations per church per hour (AI_GENERATIONS_PER_HOUR, default 30). */
  generationsPerHour: number;
  /** The caller's address and its generations an hour, whatever the church (AI_GENERATIONS_PER_ADDRESS_PER_HOUR). */
  perAddress?: { ip: string; perHour: number };
}

export const TOO_MANY_AI_FROM_ADDRESS = 'Too many AI generations from this address. Please try again later.';

const churchRule = (deps: AiDeps): BucketRule => ({ limit: deps.generationsPerHour, windowSeconds: 3600 });

/**
 * Count one generation before the model is called, in PostgreSQL (`rate_limit_buckets`, shared by
 * every instance, one locked step, so a burst cannot slip past): per church and per address.
 */
async function takeGeneration(deps: AiDeps, tenantId: number): Promise<void> {
  await throttle(
    deps.db,
    `ai:church:${tenantId}`,
    churchRule(deps),
    `Your church has used its ${deps.generationsPerHour} AI generations for this hour. Please try again later.`,
  );
  if (deps.perAddress)
    await throttle(
      deps.db,
      `ai:address:${deps.perAddress.ip}`,
      { limit: deps.perAddress.perHour, windowSeconds: 3600 },
      TOO_MANY_AI_FROM_ADDRESS,
    );
}

const SYSTEM =
  'You write warm, clear and honest copy for church landing pages. Plain language, no jargon, no invented facts ' +
  '(dates, places, names or numbers that were not given). Answer only with JSON matching the given schema.';

const PAGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['headline', 'subheading', 'mainContent', 'callToAction', 'keyPoints'],
  properties: {
    headline: { type: 'string', description: 'At most 10 words' },
    subheading: { type: 'string', description: 'One or two sentences' },
    mainContent: { type: 'string', description: 'Two to four short paragraphs separated by blank lines' },
    callToAction: { type: 'string', description: 'Button text, at most 5 words' },
    keyPoints: { type: 'array', items: { type: 'string' }, description: '3 to 6 short key points' },
  },
};
const SECTION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: { content: { type: 'string' } },
};

const SECTION_GUIDE: Record<string, string> = {
  headline: 'a headline of at most 10 words',
  subheading: 'a subheading of one or two sentences',
  mainContent: 'the main content: two to four short paragraphs separated by blank lines',
  callToAction: 'the text of a call-to-action button, at most 5 words',
};

export async function aiStatus(deps: AiDeps, tenantId: number) {
  return {
    enabled: deps.ai !== null,
    remaining: await attemptsLeft(deps.db, `ai:church:${tenantId}`, churchRule(deps)),
  };
}

/**
 * One structured answer: the model's JSON checked by `schema`; a malformed answer is asked for
 * once more, then the generation fails. Every call is recorded (the limit, the token use).
 */
async function generate<T extends z.ZodType>(
  deps: AiDeps,
  tenantId: number,
  req: {
    kind: string;
    user: string;
    schemaName: string;
    jsonSchema: Record<string, unknown>;
    schema: T;
    system?: string;
  },
): Promise<z.infer<T>> {
  if (!deps.ai) throw new AppError('SERVICE_UNAVAILABLE', AI_NOT_CONFIGURED);
  await takeGeneration(deps, tenantId);
  for (let attempt = 1; attempt <= 2; attempt++) {
    let answer: Awaited<ReturnType<AiProvider['completeJson']>>;
    try {
      answer = await deps.ai.completeJson({
        system: req.system ?? SYSTEM,
        user: req.user,
        schemaName: req.schemaName,
        schema: req.jsonSchema,
      });
    } catch {
      // Timeouts and server errors (after the SDK's own retries).
      await record(deps, tenantId, req.kind, false, 0, 0);
      throw new AppError('BAD_GATEWAY', GENERATE_FAILED);
    }
    let parsed: z.ZodSafeParseResult<z.infer<T>> | null = null;
    try {
      parsed = req.schema.safeParse(JSON.parse(answer.text));
    } catch {
      parsed = null;
    }
    await record(deps, tenantId, req.kind, !!parsed?.success, answer.promptTokens, answer.completionTokens);
    if (parsed?.success) return parsed.data;
  }
  throw new AppError('BAD_GATEWAY', GENERATE_FAILED);
}

async function record(deps: AiDeps, tenantId: number, kind: string, ok: boolean, prompt: number, completion: number) {
  await deps.db
    .insertInto('aiGenerations')
    .values({
      userId: tenantId,
      kind,
      model: deps.ai?.model ?? '',
      ok,
      promptTokens: prompt,
      completionTokens: completion,
    })
    .execute();
}

/**
 * The page's answer with its key points trimmed and the blank ones dropped (the public page would
 * number them); fewer than three left is a malformed answer, asked for once more.
 */
const pageAnswerSchema = z.preprocess(
  (v) =>
    v && typeof v === 'object' && 'keyPoints' in v && Array.isArray(v.keyPoints)
      ? {
          ...v,
          keyPoints: v.keyPoints.map((k: unknown) => (typeof k === 'string' ? k.trim() : k)).filter((k) => k !== ''),
        }
      : v,
  aiPageAnswerSchema,
);

export async function generateLandingPage(
  deps: AiDeps,
  tenantId: number,
  input: { churchName: string; purpose: string; topic: string; targetAudience: string; additionalInfo?: string },
) {
  const user =
    `Write a landing page for ${input.churchName}.\nPurpose: ${input.purpose}\nTopic: ${input.topic}\n` +
    `Audience: ${input.targetAudience}\n` +
    (input.additionalInfo ? `Additional information: ${input.additionalInfo}\n` : '') +
    'Give a headline, a subheading, the main content, a call-to-action button text and 3 to 6 key points.';
  return generate(deps, tenantId, {
    kind: 'landing-page',
    user,
    schemaName: 'landing_page',
    jsonSchema: PAGE_SCHEMA,
    schema: pageAnswerSchema,
  });
}

export async function generateSection(
  deps: AiDeps,
  tenantId: number,
  input: { churchName: string; section: string; context: string },
): Promise<{ content: string }> {
  const guide = input.section.startsWith('keyPoint-')
    ? 'one short key point (one sentence)'
    : (SECTION_GUIDE[input.section] ?? 'the text');
  const user =
    `Rewrite ${guide} for a landing page of ${input.churchName}.\n` +
    (input.context ? `The page so far:\n${input.context}\n` : '') +
    'Answer with the new text in "content".';
  return generate(deps, tenantId, {
    kind: `section:${input.section}`,
    user,
    schemaName: 'section',
    jsonSchema: SECTION_SCHEMA,
    schema: aiSectionAnswerSchema,
  });
}

const ANNOUNCE_SYSTEM =
  'You write warm, clear and honest announcements for a church service: an email, a text message, a social ' +
  'media post and a landing page. Plain language, no jargon. Use only the facts given (title, date, time, ' +
  'place, theme, church name); never invent speakers, times, places or numbers. Answer only with JSON ' +
  'matching the given schema.';

const ANNOUNCE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['emailSubject', 'emailParagraphs', 'sms', 'social', 'headline', 'subheading', 'mainContent', 'keyPoints'],
  properties: {
    emailSubject: { type: 'string', description: 'An email subject line, at most 80 characters' },
    emailParagraphs: { type: 'array', items: { type: 'string' }, description: '2 to 4 short paragraphs' },
    sms: { type: 'string', description: 'One text message of at most 160 characters, starting with the church name' },
    social: { type: 'string', description: 'A social media post of at most 280 characters' },
    headline: { type: 'string', description: 'A landing page headline of at most 10 words' },
    subheading: { type: 'string', description: 'One or two sentences' },
    mainContent: { type: 'string', description: 'Two or three short paragraphs separated by blank lines' },
    keyPoints: { type: 'array', items: { type: 'string' }, description: '3 to 5 short key points' },
  },
};

/** The words of Announce's drafts, from the facts of a service plan (one generation). */
export async function generateAnnouncementCopy(
  deps: AiDeps,
  tenantId: number,
  facts: {
    churchName: string;
    title: string;
    when: string;
    location: string | null;
    theme: string | null;
    description: string | null;
  },
): Promise<AiAnnounceAnswer> {
  const user =
    `Announce this service of ${facts.churchName}.\nTitle: ${facts.title}\nWhen: ${facts.when}\n` +
    (facts.location ? `Where: ${facts.location}\n` : '') +
    (facts.theme ? `Theme: ${facts.theme}\n` : '') +
    (facts.description ? `About it: ${facts.description}\n` : '') +
    'Write the email (subject and paragraphs), the text message, the social media post and the landing page.';
  return generate(deps, tenantId, {
    kind: 'announce',
    user,
    schemaName: 'announcement',
    jsonSchema: ANNOUNCE_SCHEMA,
    schema: aiAnnounceAnswerSchema,
    system: ANNOUNCE_SYSTEM,
  });
}
