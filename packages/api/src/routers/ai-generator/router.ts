import {
  aiGeneratorInputSchema,
  aiPageAnswerSchema,
  aiSectionAnswerSchema,
  aiSectionInputSchema,
  aiStatusSchema,
} from '../../schemas/landing-pages.js';
import * as svc from '../../services/ai-generator/generate.js';
import { protectedProcedure, router } from '../../trpc.js';
import type { Context } from '../../context.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('AI copy');

const deps = (ctx: Pick<Context, 'db' | 'services' | 'ip'>) => ({
  db: ctx.db,
  ai: ctx.services.ai,
  generationsPerHour: ctx.services.aiGenerationsPerHour,
  perAddress: { ip: ctx.ip, perHour: ctx.services.limits.aiGenerationsPerAddressPerHour },
});

export const aiGeneratorRouter = router({
  status: protectedProcedure
    .meta(rest.get('/api/ai-generator/status', 'Whether AI copy is configured, and generations left this hour'))
    .output(aiStatusSchema)
    .query(({ ctx }) => svc.aiStatus(deps(ctx), ctx.tenantId)),
  landingPage: protectedProcedure
    .meta(
      rest.post(
        '/api/ai-generator/landing-page',
        'Write a whole page (churchName, purpose, topic, targetAudience, additionalInfo)',
        { errors: [429, 503] },
      ),
    )
    .input(aiGeneratorInputSchema)
    .output(aiPageAnswerSchema)
    .mutation(({ ctx, input }) => svc.generateLandingPage(deps(ctx), ctx.tenantId, input)),
  section: protectedProcedure
    .meta(
      rest.post(
        '/api/ai-generator/section',
        'Rewrite one section (headline, subheading, mainContent, callToAction, keyPoint-{n})',
        { errors: [429, 503] },
      ),
    )
    .input(aiSectionInputSchema)
    .output(aiSectionAnswerSchema)
    .mutation(({ ctx, input }) => svc.generateSection(deps(ctx), ctx.tenantId, input)),
});
