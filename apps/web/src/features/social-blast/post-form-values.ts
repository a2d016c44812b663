import type { UseFormReturnType } from '@mantine/form';
import dayjs from 'dayjs';
import type { RouterOutputs } from '@lampstand/api';
import { socialPostFieldsSchema, type SocialPostStatus } from '@lampstand/api/schemas/social-posts';

export type SocialPost = RouterOutputs['socialPosts']['list'][number];

export interface Values {
  content: string;
  /** 'YYYY-MM-DD' */
  date: string | null;
  /** 'HH:mm' */
  time: string;
  platforms: string[];
  status: SocialPostStatus;
  imageUrl: string;
  linkUrl: string;
  tags: string[];
}

export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function toPayload(v: Values) {
  const at = v.date ? dayjs(`${v.date}T${v.time || '09:00'}`) : null;
  return {
    content: v.content,
    scheduledFor: at && at.isValid() ? at.toISOString() : '',
    platforms: v.platforms,
    status: v.status,
    imageUrl: v.imageUrl,
    linkUrl: v.linkUrl,
    tags: v.tags,
  };
}

/** Where each field's message shows: the schedule's on the date. */
export const FIELD: Record<string, string> = { scheduledFor: 'date' };

/** The form's check: the shared schema on what will be sent, each message on its field. */
export function validatePost(v: Values): Record<string, string> {
  const r = socialPostFieldsSchema.safeParse(toPayload(v));
  const errors: Record<string, string> = {};
  if (!r.success)
    for (const i of r.error.issues) {
      const key = String(i.path[0]);
      errors[FIELD[key] ?? key] ??= i.message;
    }
  return errors;
}

export type PostForm = UseFormReturnType<Values>;
