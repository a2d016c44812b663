import { z } from 'zod';

// Where a code may lead: the destinations the picker offers (where it leads at a time: shared/qr-codes.ts).

/** One source of destinations the picker offers (the church's landing pages, its Show Up projects). */
export const qrDestinationSourceSchema = z.object({
  group: z.string(),
  options: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type QrDestinationSource = z.infer<typeof qrDestinationSourceSchema>;
