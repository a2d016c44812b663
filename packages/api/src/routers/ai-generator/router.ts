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
  status: protectedProcedure.output(aiStatusSchema).query(({ ctx }) => svc.aiStatus(deps(ctx), ctx.tenantId)),
  landingPage: protectedProcedure
    .input(aiGeneratorInputSchema)
    .output(aiPageAnswerSchema)
    .mutation(({ ctx, input }) => svc.generateLandingPage(deps(ctx), ctx.tenantId, input)),
  section: protectedProcedure
    .input(aiSectionInputSchema)
    .output(aiSectionAnswerSchema)
    .mutation(({ ctx, input }) => svc.generateSection(deps(ctx), ctx.tenantId, input)),
});
