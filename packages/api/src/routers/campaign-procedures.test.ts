import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { RouterInputs, RouterOutputs } from '../index.js';
import { appRouter } from '../root.js';
import type {
  createEmailCampaignSchema,
  emailCampaignSchema,
  updateEmailCampaignSchema,
} from '../schemas/email-campaigns.js';
import type { createSmsCampaignSchema, smsCampaignSchema, updateSmsCampaignSchema } from '../schemas/sms-campaigns.js';
import type { campaignIdSchema, recipientCountSchema } from '../schemas/campaigns.js';

// campaignProcedures states its procedures' types by hand (tRPC's public procedure types over zod's
// inference). These are the types the web client sees; `tsc -b` fails here when they drift from the
// schemas the procedures parse with.
type In = RouterInputs;
type Out = RouterOutputs;

describe('campaignProcedures', () => {
  it("types each channel's procedures by its own schemas", () => {
    expectTypeOf<In['smsCampaigns']['create']>().toEqualTypeOf<z.input<typeof createSmsCampaignSchema>>();
    expectTypeOf<In['smsCampaigns']['update']>().toEqualTypeOf<z.input<typeof updateSmsCampaignSchema>>();
    expectTypeOf<Out['smsCampaigns']['get']>().toEqualTypeOf<z.output<typeof smsCampaignSchema>>();
    expectTypeOf<Out['smsCampaigns']['send']>().toEqualTypeOf<z.output<typeof smsCampaignSchema>>();
    expectTypeOf<In['emailCampaigns']['create']>().toEqualTypeOf<z.input<typeof createEmailCampaignSchema>>();
    expectTypeOf<In['emailCampaigns']['update']>().toEqualTypeOf<z.input<typeof updateEmailCampaignSchema>>();
    expectTypeOf<Out['emailCampaigns']['update']>().toEqualTypeOf<z.output<typeof emailCampaignSchema>>();
    expectTypeOf<In['emailCampaigns']['delete']>().toEqualTypeOf<z.input<typeof campaignIdSchema>>();
    expectTypeOf<Out['emailCampaigns']['delete']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<Out['smsCampaigns']['recipientCount']>().toEqualTypeOf<z.output<typeof recipientCountSchema>>();
  });

  it('gives every channel the same six procedures, queries and mutations as typed', () => {
    const types = (channel: 'smsCampaigns' | 'emailCampaigns') =>
      Object.fromEntries(
        (['get', 'create', 'update', 'delete', 'send', 'recipientCount'] as const).map((name) => [
          name,
          appRouter[channel][name]._def.type,
        ]),
      );
    const expected = {
      get: 'query',
      create: 'mutation',
      update: 'mutation',
      delete: 'mutation',
      send: 'mutation',
      recipientCount: 'query',
    };
    expect(types('smsCampaigns')).toEqual(expected);
    expect(types('emailCampaigns')).toEqual(expected);
  });
});
