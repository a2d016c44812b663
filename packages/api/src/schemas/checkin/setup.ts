import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema, urlSchema } from '../common.js';

// Children's check-in, set-up: services (the times check-in runs), rooms and classes, stations.

export const roomIdSchema = idSchema('Room ID');
export const serviceIdSchema = idSchema('Service ID');
export const stationIdSchema = idSchema('Station ID');
/** 'YYYY-MM-DD'. */
export const dateSchema = z
  .string({ error: 'Date must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be a date (YYYY-MM-DD)')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'Date must be a date (YYYY-MM-DD)');

/** School grades: -1 pre-K, 0 kindergarten, 1–12. */
export const gradeSchema = z.coerce
  .number({ error: 'Grade must be a number from -1 (pre-K) to 12' })
  .int('Grade must be a number from -1 (pre-K) to 12')
  .min(-1, 'Grade must be a number from -1 (pre-K) to 12')
  .max(12, 'Grade must be a number from -1 (pre-K) to 12');
const months = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number of months` })
    .int(`${label} must be a whole number of months`)
    .min(0, `${label} must be at least 0 months`)
    .max(300, `${label} must be at most 300 months`);

export const serviceInputSchema = z.object({
  name: requiredTextSchema('Service name', 100),
  /** 0 = Sunday. */
  weekday: z.coerce
    .number({ error: 'Weekday must be 0 (Sunday) to 6 (Saturday)' })
    .int('Weekday must be 0 (Sunday) to 6 (Saturday)')
    .min(0, 'Weekday must be 0 (Sunday) to 6 (Saturday)')
    .max(6, 'Weekday must be 0 (Sunday) to 6 (Saturday)'),
  /** 'HH:MM', 24-hour, in the church's time zone. */
  startsAt: z
    .string({ error: 'Start time must be a time (HH:MM)' })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Start time must be a time (HH:MM)'),
});
export const serviceSchema = serviceInputSchema.extend({ id: z.number().int() });
export const updateServiceSchema = serviceInputSchema.extend({ id: serviceIdSchema });

const roomFields = z.object({
  name: requiredTextSchema('Room name', 100),
  ageMinMonths: months('Youngest age').nullable().default(null),
  ageMaxMonths: months('Oldest age').nullable().default(null),
  gradeMin: gradeSchema.nullable().default(null),
  gradeMax: gradeSchema.nullable().default(null),
  capacity: z.coerce
    .number({ error: 'Capacity must be a number' })
    .int('Capacity must be a whole number')
    .min(1, 'Capacity must be at least 1')
    .max(10000, 'Capacity must be at most 10000')
    .nullable()
    .default(null),
  serviceIds: z.array(serviceIdSchema).max(50, 'A room runs at most 50 services').default([]),
});
const roomRules = <T extends z.ZodType<z.infer<typeof roomFields>>>(s: T) =>
  s
    .refine((r) => r.ageMinMonths === null || r.ageMaxMonths === null || r.ageMinMonths <= r.ageMaxMonths, {
      message: 'Oldest age must not be less than youngest age',
      path: ['ageMaxMonths'],
    })
    .refine((r) => r.gradeMin === null || r.gradeMax === null || r.gradeMin <= r.gradeMax, {
      message: 'Highest grade must not be less than lowest grade',
      path: ['gradeMax'],
    })
    .refine(
      (r) => !((r.ageMinMonths !== null || r.ageMaxMonths !== null) && (r.gradeMin !== null || r.gradeMax !== null)),
      { message: 'A room is by age or by grade, not both', path: ['gradeMin'] },
    );
export const roomInputSchema = roomRules(roomFields);
export const updateRoomSchema = roomRules(roomFields.extend({ id: roomIdSchema }));
export const roomSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ageMinMonths: z.number().int().nullable(),
  ageMaxMonths: z.number().int().nullable(),
  gradeMin: z.number().int().nullable(),
  gradeMax: z.number().int().nullable(),
  capacity: z.number().int().nullable(),
  serviceIds: z.array(z.number().int()),
  /** The dates it is closed, today and later. */
  closedOn: z.array(z.string()),
});
export type Room = z.infer<typeof roomSchema>;
export const roomClosureSchema = z.object({ id: roomIdSchema, date: dateSchema, closed: z.boolean() });

export const STATION_KINDS = ['self', 'manned', 'room'] as const;
export const stationInputSchema = z.object({
  name: requiredTextSchema('Station name', 100),
  kind: z.enum(STATION_KINDS, { error: 'Kind must be self, manned or room' }),
  /** A room station's room. */
  roomId: roomIdSchema.nullable().default(null),
  /** 'bridge': labels go to the church's print bridge; 'pdf': the station prints a PDF. */
  printer: z.enum(['pdf', 'bridge'], { error: 'Printer must be pdf or bridge' }).default('pdf'),
  printerBridgeUrl: urlSchema('Please enter the print bridge address (http://…)').nullable().default(null),
  printerBridgeSecret: optionalTextSchema('Print bridge secret', 200).default(null),
  labelSize: z.enum(['2.25x1.25', '4x2'], { error: 'Label size must be 2.25x1.25 or 4x2' }).default('2.25x1.25'),
});
export const createStationSchema = stationInputSchema
  .refine((s) => s.printer !== 'bridge' || s.printerBridgeUrl !== null, {
    message: 'A station printing through a bridge needs its address',
    path: ['printerBridgeUrl'],
  })
  .refine((s) => s.kind !== 'room' || s.roomId !== null, {
    message: 'A room station needs its room',
    path: ['roomId'],
  });
export const stationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(STATION_KINDS),
  roomId: z.number().int().nullable(),
  printer: z.enum(['pdf', 'bridge']),
  printerBridgeUrl: z.string().nullable(),
  labelSize: z.enum(['2.25x1.25', '4x2']),
  paired: z.boolean(),
  pairedAt: isoTimestamp.nullable(),
  lastSeenAt: isoTimestamp.nullable(),
});
/** A new station, or one paired again: its one-time code, shown once, for the station's browser. */
export const pairingCodeSchema = z.object({
  station: stationSchema,
  pairingCode: z.string(),
  expiresAt: isoTimestamp,
});
export const redeemPairingSchema = z.object({
  code: z
    .string({ error: 'Pairing code is required' })
    .trim()
    .min(1, 'Pairing code is required')
    .max(20, 'That pairing code is not right')
    .transform((s) => s.toUpperCase().replace(/[\s-]/g, '')),
});
/** What a station knows of itself (its config), with the bridge's secret its labels need. */
export const stationSelfSchema = stationSchema.extend({
  printerBridgeSecret: z.string().nullable(),
  today: z.string(),
  churchName: z.string(),
});
