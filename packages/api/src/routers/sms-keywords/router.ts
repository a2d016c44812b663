import { z } from 'zod';
import {
  createKeywordInput,
  keywordIdSchema,
  smsKeywordSchema,
  updateKeywordInput,
} from '../../schemas/conversations.js';
import { createKeyword, deleteKeyword, listKeywords, updateKeyword } from '../../services/conversations/keywords.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('SMS keywords');

export const smsKeywordsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/sms-keywords', "The church's SMS keywords, A to Z, with how many texts matched each"))
    .output(z.array(smsKeywordSchema))
    .query(({ ctx }) => listKeywords(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/sms-keywords',
        "Add a keyword (one or two words; STOP, START, HELP and their kind are reserved). Needs the church's own texting number (Settings → Texting): 400 on the shared number",
        {
          status: 201,
          errors: [409],
        },
      ),
    )
    .input(createKeywordInput)
    .output(smsKeywordSchema)
    .mutation(({ ctx, input }) => createKeyword(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch('/api/sms-keywords/{id}', 'Change a keyword (only the fields sent; 400 on the shared number)', {
        errors: [409],
      }),
    )
    .input(updateKeywordInput)
    .output(smsKeywordSchema)
    .mutation(({ ctx, input }) => updateKeyword(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/sms-keywords/{id}', 'Delete a keyword'))
    .input(keywordIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteKeyword(ctx.db, ctx.tenantId, input)),
});
