/**
 * Check-in labels as ZPL for a Zebra-compatible printer (203 dpi): a child's name tag (name, room,
 * a boxed '!' with the allergy and medical note, the date, the security code) and the parent's
 * pickup tag (the children's names and the same code). Plain functions without Node's modules: the
 * server answers labels with them, and an offline station can print with the same ones.
 */
export type LabelSize = '2.25x1.25' | '4x2';
const DOTS: Record<LabelSize, [number, number]> = { '2.25x1.25': [457, 254], '4x2': [812, 406] };

export interface ChildTag {
  name: string;
  room: string;
  /** Allergies and medical notes in one line; null when there are none. */
  care: string | null;
  code: string;
  date: string;
}
export interface PickupTag {
  children: string[];
  code: string;
  date: string;
}

/** Text for a ZPL field: its control characters (^ and ~) and line breaks out. */
const field = (s: string) => s.replace(/[\^~\r\n]/g, ' ');

export function childTagZpl(t: ChildTag, size: LabelSize = '2.25x1.25'): string {
  const [w, h] = DOTS[size];
  const k = w / 457;
  const at = (x: number, y: number) => `^FO${Math.round(x * k)},${Math.round(y * k)}`;
  const font = (n: number) => `^A0N,${Math.round(n * k)},${Math.round(n * k)}`;
  return [
    `^XA^CI28^PW${w}^LL${h}`,
    `${at(16, 12)}${font(48)}^FB${w - 32},1,0,L^FD${field(t.name)}^FS`,
    `${at(16, 66)}${font(28)}^FD${field(t.room)}^FS`,
    ...(t.care
      ? [`${at(16, 100)}^GB${Math.round(34 * k)},${Math.round(34 * k)},3^FS`, `${at(26, 104)}${font(30)}^FD!^FS`]
      : []),
    ...(t.care ? [`${at(58, 106)}${font(22)}^FB${Math.round(380 * k)},2,0,L^FD${field(t.care)}^FS`] : []),
    `${at(16, 200)}${font(24)}^FD${field(t.date)}^FS`,
    `${at(290, 176)}${font(64)}^FD${field(t.code)}^FS`,
    '^XZ',
  ].join('\n');
}

export function pickupTagZpl(t: PickupTag, size: LabelSize = '2.25x1.25'): string {
  const [w, h] = DOTS[size];
  const k = w / 457;
  const at = (x: number, y: number) => `^FO${Math.round(x * k)},${Math.round(y * k)}`;
  const font = (n: number) => `^A0N,${Math.round(n * k)},${Math.round(n * k)}`;
  return [
    `^XA^CI28^PW${w}^LL${h}`,
    `${at(16, 12)}${font(26)}^FDPICKUP TAG^FS`,
    `${at(16, 46)}${font(28)}^FB${w - 32},3,0,L^FD${field(t.children.join(', '))}^FS`,
    `${at(16, 200)}${font(24)}^FD${field(t.date)}^FS`,
    `${at(290, 176)}${font(64)}^FD${field(t.code)}^FS`,
    '^XZ',
  ].join('\n');
}

export function labelsZpl(tags: { children: ChildTag[]; pickup: PickupTag }, size: LabelSize): string {
  return [...tags.children.map((t) => childTagZpl(t, size)), pickupTagZpl(tags.pickup, size)].join('\n');
}
