import { z } from 'zod';
import {
  conversationIdSchema,
  conversationMessageSchema,
  conversationSchema,
  conversationDigestSchema,
  createQuickReplyInput,
  listConversationsInput,
  listConversationsOutput,
  listMessagesInput,
  listMessagesOutput,
  quickReplyIdSchema,
  quickReplySchema,
  sendReplyInput,
  updateConversationInput,
} from '../../schemas/conversations.js';
import {
  getConversation,
  listConversationMessages,
  listConversations,
  sendReply,
  updateConversation,
} from '../../services/conversations/conversations.js';
import { createQuickReply, deleteQuickReply, listQuickReplies } from '../../services/conversations/quick-replies.js';
import { getConversationDigest, setConversationDigest } from '../../services/conversations/digest.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Conversations');

export const conversationsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/conversations', 'Text conversations with people, newest first'))
    .input(listConversationsInput)
    .output(listConversationsOutput)
    .query(({ ctx, input }) => listConversations(ctx.db, ctx.tenantId, ctx.effectiveUser.id, input)),
  get: protectedProcedure
    .meta(rest.get('/api/conversations/{id}', 'One conversation'))
    .input(conversationIdSchema)
    .output(conversationSchema)
    .query(({ ctx, input }) => getConversation(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch(
        '/api/conversations/{id}',
        'Assign, close or reopen, mark read or unread, link to a contact or make a new contact (only the fields sent)',
      ),
    )
    .input(updateConversationInput)
    .output(conversationSchema)
    .mutation(({ ctx, input }) => updateConversation(ctx.db, ctx.tenantId, input)),
  messages: protectedProcedure
    .meta(
      rest.get(
        '/api/conversations/{id}/messages',
        "The thread, oldest first: the person's texts, replies and the campaign texts sent to them",
      ),
    )
    .input(listMessagesInput)
    .output(listMessagesOutput)
    .query(({ ctx, input }) => listConversationMessages(ctx.db, ctx.tenantId, input)),
  reply: protectedProcedure
    .meta(
      rest.post('/api/conversations/{id}/messages', 'Reply by text (sent by the delivery engine)', {
        status: 201,
        errors: [409, 429],
      }),
    )
    .input(sendReplyInput)
    .output(conversationMessageSchema)
    .mutation(({ ctx, input }) =>
      sendReply(
        { db: ctx.db, jobs: ctx.services.jobs, config: ctx.services.delivery },
        ctx.tenantId,
        ctx.effectiveUser.id,
        input,
      ),
    ),
  quickReplies: protectedProcedure
    .meta(rest.get('/api/sms-quick-replies', 'Saved snippets for replies'))
    .output(z.array(quickReplySchema))
    .query(({ ctx }) => listQuickReplies(ctx.db, ctx.tenantId)),
  createQuickReply: protectedProcedure
    .meta(rest.post('/api/sms-quick-replies', 'Save a snippet for replies', { status: 201 }))
    .input(createQuickReplyInput)
    .output(quickReplySchema)
    .mutation(({ ctx, input }) => createQuickReply(ctx.db, ctx.tenantId, input)),
  deleteQuickReply: protectedProcedure
    .meta(rest.delete('/api/sms-quick-replies/{id}', 'Delete a saved snippet'))
    .input(quickReplyIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteQuickReply(ctx.db, ctx.tenantId, input)),
  digest: protectedProcedure
    .meta(rest.get('/api/conversation-digest', 'How often the email digest of unread conversations comes'))
    .output(conversationDigestSchema)
    .query(({ ctx }) => getConversationDigest(ctx.db, ctx.tenantId)),
  setDigest: protectedProcedure
    .meta(rest.put('/api/conversation-digest', 'Email digest of unread conversations: off, hourly or daily'))
    .input(conversationDigestSchema)
    .output(conversationDigestSchema)
    .mutation(({ ctx, input }) => setConversationDigest(ctx.db, ctx.tenantId, input)),
});
