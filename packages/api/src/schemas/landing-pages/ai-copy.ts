import { z } from 'zod';
import { requiredTextSchema, textSchema } from '../common.js';

// ---------------------------------------------------------------------------------------------
// AI copy
// ---------------------------------------------------------------------------------------------

export const AI_PURPOSES = ['event', 'ministry', 'announcement', 'service', 'outreach', 'fundraising'] as const;
export const AI_AUDIENCES = ['church members', 'community', 'youth', 'families', 'new visitors', 'everyone'] as const;

export const aiGeneratorInputSchema = z.object({
  churchName: requiredTextSchema('Church name', 200, 'Church name is required'),
  purpose: requiredTextSchema('Purpose', 100, 'Purpose is required'),
  topic: requiredTextSchema('Topic', 300, 'Topic is required'),
  targetAudience: requiredTextSchema('Target audience', 100, 'Target audience is required'),
  additionalInfo: textSchema('Additional information', 2000).optional(),
});
export type AiGeneratorInput = z.input<typeof aiGeneratorInputSchema>;

export const aiSectionSchema = z
  .string()
  .regex(/^(headline|subheading|mainContent|callToAction|keyPoint-([0-9]|1[01]))$/, 'Section is not valid');
export const aiSectionInputSchema = z.object({
  churchName: requiredTextSchema('Church name', 200, 'Church name is required'),
  section: aiSectionSchema,
  context: textSchema('Context', 4000).default(''),
});

/** What the model must answer for a whole page (structured output). */
export const aiPageAnswerSchema = z.object({
  headline: z.string().min(1).max(200),
  subheading: z.string().min(1).max(500),
  mainContent: z.string().min(1).max(20_000),
  callToAction: z.string().min(1).max(100),
  keyPoints: z.array(z.string().min(1).max(300)).min(3).max(6),
});
export const aiSectionAnswerSchema = z.object({ content: z.string().min(1).max(20_000) });
export const aiStatusSchema = z.object({ enabled: z.boolean(), remaining: z.number().int() });
