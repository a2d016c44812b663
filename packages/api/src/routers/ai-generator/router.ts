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

const deps = (ctx: Pick<Context, 'db' | 'services' | 'ip'>) => ({
  db: ctx.db,
  ai: ctx.services.ai,
  generationsPerHour: ctx.services.aiGenerationsPerHour,
  perAddress: { ip: ctx.ip, perHour: ctx.services.limits.aiGenerationsPerAddressPerHour },
});

export const aiGeneratorRouter = router({
  status: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/ai-generator/status',
        summary: 'Whether AI copy is configured, and generations left this hour',
        tag: 'AI copy',
      },
    })
    .output(aiStatusSchema)
    .query(({ ctx }) => svc.aiStatus(deps(ctx), ctx.tenantId)),
  landingPage: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/ai-generator/landing-page',
        summary: 'Write a whole page (churchName, purpose, topic, targetAudience, additionalInfo)',
        tag: 'AI copy',
        errors: [429, 503],
      },
    })
    .input(aiGeneratorInputSchema)
    .output(aiPageAnswerSchema)
    .mutation(({ ctx, input }) => svc.generateLandingPage(deps(ctx), ctx.tenantId, input)),
  section: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/ai-generator/section',
        summary: 'Rewrite one section (headline, subheading, mainContent, callToAction, keyPoint-{n})',
        tag: 'AI copy',
        errors: [429, 503],
      },
    })
    .input(aiSectionInputSchema)
    .output(aiSectionAnswerSchema)
    .mutation(({ ctx, input }) => svc.generateSection(deps(ctx), ctx.tenantId, input)),
});
