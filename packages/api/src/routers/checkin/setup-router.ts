import { z } from 'zod';
import {
  createStationSchema,
  pairingCodeSchema,
  roomClosureSchema,
  roomIdSchema,
  roomInputSchema,
  roomSchema,
  serviceIdSchema,
  serviceInputSchema,
  serviceSchema,
  stationIdSchema,
  stationSchema,
  updateRoomSchema,
  updateServiceSchema,
} from '../../schemas/checkin/setup.js';
import {
  childCareInputSchema,
  childCareSchema,
  childIdSchema,
  familyIdSchema,
} from '../../schemas/checkin/checkins.js';
import {
  createService,
  deleteRoom,
  deleteService,
  listRooms,
  listServices,
  saveRoom,
  setRoomClosed,
  updateService,
} from '../../services/checkin/rooms.js';
import {
  createStation,
  deleteStation,
  listStations,
  pairStationAgain,
  unpairStation,
} from '../../services/checkin/stations.js';
import { familyCard } from '../../services/checkin/families.js';
import { getChildCare, updateChildCare } from '../../services/checkin/roster.js';
import { churchToday } from '../../services/checkin/scope.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';
import type { Db } from '@lampstand/db';

const rest = restTag('Check-in');
const idOut = z.object({ id: z.number().int() });
/** Staff's scope for the check-in services (no station). */
const staff = (ctx: { db: Db; tenantId: number; user: { id: number } }) => ({
  tenantId: ctx.tenantId,
  station: null,
  userId: ctx.user.id,
  now: new Date(),
});
const today = (ctx: { db: Db; tenantId: number; user: { id: number } }) => churchToday(ctx.db, staff(ctx));

/** Staff's set-up of check-in: services, rooms, stations, children's care records. Never a station's. */
export const checkinSetupRouter = router({
  listServices: protectedProcedure
    .meta(rest.get('/api/check-in/services', 'Check-in services (the times check-in runs)'))
    .output(z.array(serviceSchema))
    .query(({ ctx }) => listServices(ctx.db, ctx.tenantId)),
  createService: protectedProcedure
    .meta(rest.post('/api/check-in/services', 'Add a check-in service', { status: 201 }))
    .input(serviceInputSchema)
    .output(serviceSchema)
    .mutation(({ ctx, input }) => createService(ctx.db, ctx.tenantId, input)),
  updateService: protectedProcedure
    .meta(rest.put('/api/check-in/services/{id}', 'Replace a check-in service'))
    .input(updateServiceSchema)
    .output(serviceSchema)
    .mutation(({ ctx, input }) => updateService(ctx.db, ctx.tenantId, input)),
  deleteService: protectedProcedure
    .meta(rest.delete('/api/check-in/services/{id}', 'Delete a check-in service'))
    .input(z.object({ id: serviceIdSchema }))
    .output(idOut)
    .mutation(({ ctx, input }) => deleteService(ctx.db, ctx.tenantId, input.id)),

  listRooms: protectedProcedure
    .meta(rest.get('/api/check-in/rooms', 'Rooms and classes'))
    .output(z.array(roomSchema))
    .query(async ({ ctx }) => listRooms(ctx.db, ctx.tenantId, { fromDay: await today(ctx) })),
  createRoom: protectedProcedure
    .meta(rest.post('/api/check-in/rooms', 'Add a room or class', { status: 201 }))
    .input(roomInputSchema)
    .output(roomSchema)
    .mutation(async ({ ctx, input }) => saveRoom(ctx.db, ctx.tenantId, input, await today(ctx))),
  updateRoom: protectedProcedure
    .meta(rest.put('/api/check-in/rooms/{id}', 'Replace a room (PUT: send the whole record)'))
    .input(updateRoomSchema)
    .output(roomSchema)
    .mutation(async ({ ctx, input }) => saveRoom(ctx.db, ctx.tenantId, input, await today(ctx))),
  deleteRoom: protectedProcedure
    .meta(rest.delete('/api/check-in/rooms/{id}', 'Delete a room that never had a check-in', { errors: [409] }))
    .input(z.object({ id: roomIdSchema }))
    .output(idOut)
    .mutation(({ ctx, input }) => deleteRoom(ctx.db, ctx.tenantId, input.id)),
  closeRoom: protectedProcedure
    .meta(rest.post('/api/check-in/rooms/{id}/closed', 'Close a room for a date, or open it again'))
    .input(roomClosureSchema)
    .output(roomSchema)
    .mutation(async ({ ctx, input }) => setRoomClosed(ctx.db, ctx.tenantId, input, await today(ctx))),

  listStations: protectedProcedure
    .meta(rest.get('/api/check-in/stations', 'Check-in stations'))
    .output(z.array(stationSchema))
    .query(({ ctx }) => listStations(ctx.db, ctx.tenantId)),
  createStation: protectedProcedure
    .meta(rest.post('/api/check-in/stations', 'Add a station: its one-time pairing code (15 minutes)', { status: 201 }))
    .input(createStationSchema)
    .output(pairingCodeSchema)
    .mutation(({ ctx, input }) => createStation(ctx.db, ctx.tenantId, { ...input, pairedBy: ctx.user.id })),
  pairStation: protectedProcedure
    .meta(rest.post('/api/check-in/stations/{id}/pairing-code', 'A new pairing code for a station'))
    .input(z.object({ id: stationIdSchema }))
    .output(pairingCodeSchema)
    .mutation(({ ctx, input }) => pairStationAgain(ctx.db, ctx.tenantId, { id: input.id, pairedBy: ctx.user.id })),
  unpairStation: protectedProcedure
    .meta(rest.post('/api/check-in/stations/{id}/unpair', 'Unpair a station: its cookie stops working'))
    .input(z.object({ id: stationIdSchema }))
    .output(stationSchema)
    .mutation(({ ctx, input }) => unpairStation(ctx.db, ctx.tenantId, input.id)),
  deleteStation: protectedProcedure
    .meta(rest.delete('/api/check-in/stations/{id}', 'Delete a station'))
    .input(z.object({ id: stationIdSchema }))
    .output(idOut)
    .mutation(({ ctx, input }) => deleteStation(ctx.db, ctx.tenantId, input.id)),

  familyCard: protectedProcedure
    .meta(rest.post('/api/check-in/families/{id}/card', "A family's QR card token (made once)"))
    .input(z.object({ id: familyIdSchema }))
    .output(z.object({ token: z.string() }))
    .mutation(({ ctx, input }) => familyCard(ctx.db, ctx.tenantId, input.id)),
  getChildCare: protectedProcedure
    .meta(
      rest.get('/api/check-in/children/{id}', "A child's care record (notes, custody note, adults); read is logged"),
    )
    .input(z.object({ id: childIdSchema }))
    .output(childCareSchema)
    .query(({ ctx, input }) => getChildCare(ctx.db, staff(ctx), input.id)),
  updateChildCare: protectedProcedure
    .meta(rest.patch('/api/check-in/children/{id}', "Update a child's care record (adults replace the list)"))
    .input(childCareInputSchema)
    .output(childCareSchema)
    .mutation(({ ctx, input }) => updateChildCare(ctx.db, staff(ctx), input)),
});
