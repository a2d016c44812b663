import { z } from 'zod';
import { isIsoDate } from '../../shared/dates.js';

export const dateSchema = (label: string) =>
  z.string({ error: `${label} must be a date (YYYY-MM-DD)` }).refine(isIsoDate, `${label} must be a date (YYYY-MM-DD)`);
