import { SMS_HELP_WORDS, SMS_START_WORDS, SMS_STOP_WORDS } from '../schemas/sms-campaigns.js';

// Texts as carriers count and read them: segments, and the STOP/START/HELP words. The SMS form counts
// segments with this same code.

/** GSM 03.38 basic character set (one septet each). */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table: an escape plus the character, two septets each. */
const GSM7_EXTENDED = '^{}\\[~]|€\f';

const BASIC = new Set(Array.from(GSM7_BASIC));

const EXTENDED = new Set(Array.from(GSM7_EXTENDED));

export interface SmsSegments {
  /** Characters as the person typed them. */
  characters: number;
  encoding: 'GSM-7' | 'UCS-2';
  /** Units that count against the limit: septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
  segments: number;
  /** Units per segment at this length: 160/153 (GSM-7) or 70/67 (UCS-2). */
  perSegment: number;
}

/**
 * How many SMS segments a text takes. GSM-7 text is one segment up to 160 septets, then 153 per
 * segment (the rest carries the concatenation header); extension characters (€ [ ] { } ~ ^ \ |)
 * take two. Any character outside GSM-7 (an emoji, most accents) makes the whole text UCS-2:
 * 70 UTF-16 units in one segment, then 67 per segment. Never fewer than 1.
 */
export function smsSegments(text: string): SmsSegments {
  const chars = Array.from(text);
  let septets = 0;
  let gsm = true;
  for (const ch of chars) {
    if (BASIC.has(ch)) septets += 1;
    else if (EXTENDED.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) {
    const segments = septets <= 160 ? 1 : Math.ceil(septets / 153);
    return {
      characters: chars.length,
      encoding: 'GSM-7',
      units: septets,
      segments,
      perSegment: segments === 1 ? 160 : 153,
    };
  }
  const units = text.length; // UTF-16 code units: an emoji outside the BMP takes two
  const segments = units <= 70 ? 1 : Math.ceil(units / 67);
  return { characters: chars.length, encoding: 'UCS-2', units, segments, perSegment: segments === 1 ? 70 : 67 };
}

/** Merge tags are counted at a typical length: a first and a last name of 7 letters each. */
export const TYPICAL_MERGE_VALUES = { firstName: 'Jessica', lastName: 'Johnson' } as const;

/**
 * The segments of a message as people receive it: merge tags filled at a typical length and
 * {{churchName}} with the church's own name (as the sender fills them).
 */
export function smsSegmentsOfMessage(content: string, churchName: string): SmsSegments {
  return smsSegments(
    content.replace(/\{\{\s*(firstName|lastName|churchName)\s*\}\}/g, (_, key: string) =>
      key === 'churchName' ? churchName : TYPICAL_MERGE_VALUES[key as 'firstName' | 'lastName'],
    ),
  );
}

export function smsKeyword(body: string): 'stop' | 'start' | 'help' | null {
  const word = body.trim().toUpperCase().replace(/\s+/g, ' ');
  if (SMS_STOP_WORDS.includes(word)) return 'stop';
  if (SMS_START_WORDS.includes(word)) return 'start';
  if (SMS_HELP_WORDS.includes(word)) return 'help';
  return null;
}
