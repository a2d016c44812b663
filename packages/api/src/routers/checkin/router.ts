import { z } from 'zod';
import {
  checkInInputSchema,
  checkInOutputSchema,
  checkinSchema,
  checkoutInputSchema,
  headcountsInputSchema,
  headcountsOutputSchema,
  listCheckinsInputSchema,
  lookupInputSchema,
  lookupOutputSchema,
  newFamilyInputSchema,
  newFamilyOutputSchema,
  rosterInputSchema,
  rosterOutputSchema,
} from '../../schemas/checkin/checkins.js';
import {
  codeBlockInputSchema,
  codeBlockOutputSchema,
  labelInputSchema,
  labelOutputSchema,
  offlineBundleOutputSchema,
  syncInputSchema,
  syncOutputSchema,
} from '../../schemas/checkin/offline.js';
import { stationSelfSchema } from '../../schemas/checkin/setup.js';
import { forbidden } from '../../errors.js';
import { checkIn } from '../../services/checkin/check-in.js';
import { checkOut } from '../../services/checkin/checkout.js';
import { addFamily, lookupFamilies } from '../../services/checkin/families.js';
import { offlineBundle } from '../../services/checkin/offline-bundle.js';
import { labelsPdf, tagsFor } from '../../services/checkin/labels.js';
import { labelsZpl } from '../../shared/checkin-labels.js';
import { loadCheckins } from '../../services/checkin/records.js';
import { headcounts, roomRoster } from '../../services/checkin/roster.js';
import { reserveCodeBlock } from '../../services/checkin/codes.js';
import { assertStationMay, churchToday, dayFor } from '../../services/checkin/scope.js';
import { stationSelf } from '../../services/checkin/stations.js';
import { syncOffline } from '../../services/checkin/sync.js';
import { checkinProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';
import { checkinSetupRouter } from './setup-router.js';

const rest = restTag('Check-in');

/**
 * Check-in on the day: what a paired station (or staff) calls. Every procedure is a
 * `checkinProcedure`: a station reaches these and nothing else, and only today's data.
 */
export const checkinRouter = router({
  setup: checkinSetupRouter,
  station: checkinProcedure
    .meta(rest.get('/api/check-in/station', "This station's settings and today's date (a station only)"))
    .output(stationSelfSchema)
    .query(async ({ ctx }) => {
      if (!ctx.checkin.station) throw forbidden('Only a paired station has station settings');
      const self = await stationSelf(ctx.db, ctx.tenantId, ctx.checkin.station.id);
      return { ...self, today: await churchToday(ctx.db, ctx.checkin) };
    }),
  lookup: checkinProcedure
    .meta(rest.get('/api/check-in/families', 'Find families by phone digits, name or card, with rooms chosen'))
    .input(lookupInputSchema)
    .output(lookupOutputSchema)
    .query(async ({ ctx, input }) => {
      const day = await churchToday(ctx.db, ctx.checkin);
      const families = await lookupFamilies(ctx.db, ctx.checkin, input, day);
      return { serviceId: input.serviceId ?? null, families };
    }),
  addFamily: checkinProcedure
    .meta(rest.post('/api/check-in/families', 'Add a first-time family (parent and children)', { status: 201 }))
    .input(newFamilyInputSchema)
    .output(newFamilyOutputSchema)
    .mutation(async ({ ctx, input }) => ({
      family: await addFamily(ctx.db, ctx.checkin, input, await churchToday(ctx.db, ctx.checkin)),
    })),
  checkIn: checkinProcedure
    .meta(
      rest.post('/api/check-ins', 'Check children in: one security code for the family', {
        status: 201,
        errors: [404, 409],
      }),
    )
    .input(checkInInputSchema)
    .output(checkInOutputSchema)
    .mutation(async ({ ctx, input }) =>
      checkIn(ctx.db, ctx.checkin, input, { day: await churchToday(ctx.db, ctx.checkin) }),
    ),
  checkOut: checkinProcedure
    .meta(rest.post('/api/check-ins/{id}/checkout', 'Pick a child up with the security code', { errors: [409] }))
    .input(checkoutInputSchema)
    .output(checkinSchema)
    .mutation(({ ctx, input }) => checkOut(ctx.db, ctx.checkin, input)),
  list: checkinProcedure
    .meta(rest.get('/api/check-ins', 'Check-ins of a date (today by default), of one room'))
    .input(listCheckinsInputSchema)
    .output(z.array(checkinSchema))
    .query(async ({ ctx, input }) => {
      // A room station lists its own room (asked for another: 403).
      const roomId =
        input.room ?? (ctx.checkin.station?.kind === 'room' ? (ctx.checkin.station.roomId ?? 0) : undefined);
      assertStationMay(ctx.checkin, 'list', roomId);
      return loadCheckins(ctx.db, ctx.tenantId, {
        day: await dayFor(ctx.db, ctx.checkin, input.date),
        roomId,
        present: input.present,
      });
    }),
  headcounts: checkinProcedure
    .meta(rest.get('/api/check-ins/headcounts', 'Headcounts per room per service'))
    .input(headcountsInputSchema)
    .output(headcountsOutputSchema)
    .query(async ({ ctx, input }) => {
      assertStationMay(ctx.checkin, 'list');
      return headcounts(ctx.db, ctx.tenantId, await dayFor(ctx.db, ctx.checkin, input.date));
    }),
  roster: checkinProcedure
    .meta(rest.get('/api/check-in/rooms/{id}/roster', "A room's children with codes and pickup adults"))
    .input(rosterInputSchema)
    .output(rosterOutputSchema)
    .query(async ({ ctx, input }) =>
      roomRoster(ctx.db, ctx.checkin, { id: input.id, day: await dayFor(ctx.db, ctx.checkin, input.date) }),
    ),
  labels: checkinProcedure
    .meta(
      rest.get('/api/check-in/labels', "Labels of a family's check-in (ZPL or PDF)", {
        format: 'file',
        fileTypes: ['application/zpl', 'application/pdf'],
      }),
    )
    .input(labelInputSchema)
    .output(labelOutputSchema)
    .query(async ({ ctx, input }) => {
      const tags = await tagsFor(ctx.db, ctx.checkin, input.securityCode);
      if (input.format === 'zpl')
        return {
          fileName: `labels-${input.securityCode}.zpl`,
          contentType: 'application/zpl',
          text: labelsZpl(tags, input.size),
        };
      return {
        fileName: `labels-${input.securityCode}.pdf`,
        contentType: 'application/pdf',
        base64: (await labelsPdf(tags, input.size)).toString('base64'),
      };
    }),
  reserveCodes: checkinProcedure
    .meta(rest.post('/api/check-in/station/codes', 'Reserve security codes for offline use (a station only)'))
    .input(codeBlockInputSchema)
    .output(codeBlockOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const station = ctx.checkin.station;
      if (!station) throw forbidden('Only a paired station reserves codes');
      const day = await churchToday(ctx.db, ctx.checkin);
      const codes = await ctx.db
        .transaction()
        .execute((trx) => reserveCodeBlock(trx, ctx.tenantId, { day, stationId: station.id, size: input.size }));
      return { date: day, codes };
    }),
  offlineBundle: checkinProcedure
    .meta(
      rest.get(
        '/api/check-in/station/offline',
        "Today's rooms, services, recent families, this station's codes and the children it may pick up, for offline use",
      ),
    )
    .output(offlineBundleOutputSchema)
    .query(({ ctx }) => offlineBundle(ctx.db, ctx.checkin)),
  sync: checkinProcedure
    .meta(
      rest.post(
        '/api/check-in/sync',
        "Send a station's offline first-time families, check-ins and pickups (idempotent)",
        {
          bodyLimit: 1_048_576,
        },
      ),
    )
    .input(syncInputSchema)
    .output(syncOutputSchema)
    .mutation(({ ctx, input }) => syncOffline(ctx.db, ctx.checkin, input)),
});
