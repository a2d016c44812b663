import type { UseFormReturnType } from '@mantine/form';
import type { RouterOutputs } from '@lampstand/api';

export type Campaign = RouterOutputs['emailCampaigns']['get'];

/** The campaign's fields as the API takes them, plus what happens on saving. */
export interface Values {
  name: string;
  subject: string;
  listIds: number[];
  content: string;
  when: 'draft' | 'now' | 'later';
  /** UTC instant (ISO), entered in the church's time zone. */
  scheduledFor: string | null;
}

export type CampaignForm = UseFormReturnType<Values>;
