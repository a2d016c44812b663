import type { UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import type { createCalendarEventSchema } from '@lampstand/api/schemas/calendar-events';
import type { EventDetail } from './event-words';

type Input = z.input<typeof createCalendarEventSchema>;

/** The editor's values: the shared schema's input (ISO date strings, whole cents), every field set. */
export interface EventValues {
  title: string;
  descriptionHtml: string;
  imageUrl: string | null;
  locationName: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  audienceTags: string[];
  visibility: NonNullable<Input['visibility']>;
  registrationOpensAt: string | null;
  registrationClosesAt: string | null;
  requiresApproval: boolean;
  waitlist: boolean;
  refundPolicy: NonNullable<Input['refundPolicy']>;
  times: { id?: number; startsAt: string; endsAt: string | null; capacity: number | null }[];
  ticketTypes: {
    id?: number;
    name: string;
    priceCents: number;
    capacity: number | null;
    maxPerRegistration: number | null;
  }[];
  discountCodes: {
    id?: number;
    code: string;
    percentOff: number | null;
    amountOffCents: number | null;
    maxUses: number | null;
    expiresAt: string | null;
  }[];
  questions: {
    id?: number;
    scope: 'registration' | 'attendee';
    kind: NonNullable<Input['questions']>[number]['kind'];
    label: string;
    choices: string[];
    required: boolean;
  }[];
}

export type EventForm = UseFormReturnType<EventValues>;

export const newTime = (): EventValues['times'][number] => ({ startsAt: '', endsAt: null, capacity: null });
export const newTicketType = (): EventValues['ticketTypes'][number] => ({
  name: '',
  priceCents: 0,
  capacity: null,
  maxPerRegistration: null,
});
export const newDiscountCode = (): EventValues['discountCodes'][number] => ({
  code: '',
  percentOff: 10,
  amountOffCents: null,
  maxUses: null,
  expiresAt: null,
});
export const newQuestion = (): EventValues['questions'][number] => ({
  scope: 'registration',
  kind: 'short_text',
  label: '',
  choices: [],
  required: false,
});

/** An event's values for the editor; a new event starts with one time and a free ticket. */
export function eventValues(e?: EventDetail): EventValues {
  if (!e)
    return {
      title: '',
      descriptionHtml: '',
      imageUrl: null,
      locationName: '',
      address: '',
      latitude: null,
      longitude: null,
      audienceTags: [],
      visibility: 'public',
      registrationOpensAt: null,
      registrationClosesAt: null,
      requiresApproval: false,
      waitlist: true,
      refundPolicy: 'full',
      times: [newTime()],
      ticketTypes: [{ ...newTicketType(), name: 'General admission' }],
      discountCodes: [],
      questions: [],
    };
  return {
    title: e.title,
    descriptionHtml: e.descriptionHtml,
    imageUrl: e.imageUrl,
    locationName: e.locationName ?? '',
    address: e.address ?? '',
    latitude: e.latitude,
    longitude: e.longitude,
    audienceTags: e.audienceTags,
    visibility: e.visibility,
    registrationOpensAt: e.registrationOpensAt,
    registrationClosesAt: e.registrationClosesAt,
    requiresApproval: e.requiresApproval,
    waitlist: e.waitlist,
    refundPolicy: e.refundPolicy,
    times: e.times.map((t) => ({ id: t.id, startsAt: t.startsAt, endsAt: t.endsAt, capacity: t.capacity })),
    ticketTypes: e.ticketTypes.map((t) => ({
      id: t.id,
      name: t.name,
      priceCents: t.priceCents,
      capacity: t.capacity,
      maxPerRegistration: t.maxPerRegistration,
    })),
    discountCodes: e.discountCodes.map((d) => ({
      id: d.id,
      code: d.code,
      percentOff: d.percentOff,
      amountOffCents: d.amountOffCents,
      maxUses: d.maxUses,
      expiresAt: d.expiresAt,
    })),
    questions: e.questions.map((q) => ({
      id: q.id,
      scope: q.scope,
      kind: q.kind,
      label: q.label,
      choices: q.choices,
      required: q.required,
    })),
  };
}

interface InputProps {
  value: unknown;
  error?: React.ReactNode;
  onFocus?: () => void;
  onBlur?: () => void;
}

/** A NumberInput bound to a whole-number field that may be empty (null): capacity, uses. */
export function countProps(form: EventForm, path: string) {
  const { value, error, onFocus, onBlur } = form.getInputProps(path) as InputProps;
  const rest = { error, onFocus, onBlur };
  return {
    ...rest,
    value: value === null || value === undefined ? '' : (value as number),
    allowDecimal: false,
    min: 1,
    onChange: (v: string | number) => form.setFieldValue(path, v === '' ? null : Number(v)),
  };
}

/** A NumberInput bound to a coordinate that may be empty (null): latitude, longitude. */
export function coordinateProps(form: EventForm, path: 'latitude' | 'longitude') {
  const { value, error, onFocus, onBlur } = form.getInputProps(path) as InputProps;
  const limit = path === 'latitude' ? 90 : 180;
  return {
    error,
    onFocus,
    onBlur,
    value: value === null || value === undefined ? '' : (value as number),
    decimalScale: 6,
    min: -limit,
    max: limit,
    onChange: (v: string | number) => form.setFieldValue(path, v === '' || v === '-' ? null : Number(v)),
  };
}

/** A NumberInput of dollars bound to a field of whole cents. */
export function centsProps(form: EventForm, path: string, empty: 0 | null = 0) {
  const { value, error, onFocus, onBlur } = form.getInputProps(path) as InputProps;
  const rest = { error, onFocus, onBlur };
  return {
    ...rest,
    value: value === null || value === undefined ? '' : (value as number) / 100,
    decimalScale: 2,
    fixedDecimalScale: true,
    min: 0,
    prefix: '$',
    onChange: (v: string | number) => form.setFieldValue(path, v === '' ? empty : Math.round(Number(v) * 100)),
  };
}
