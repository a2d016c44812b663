import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { RecipientCount } from '@lampstand/api/schemas/campaigns';
import { type AccountStatus } from '@lampstand/api/schemas/account';
import { dailyLimitReason, emailWarmupSendSentence, overDailyLimitMessage } from '@lampstand/api/shared/account';
import { suppressedSentence } from '@lampstand/api/shared/suppressions';
import { smsSegmentsOfMessage } from '@lampstand/api/shared/sms';
import { trpc } from '../../lib/trpc';
import { showFailure } from '../../lib/use-save';
import { useSession } from '../../shell/session';
import { formatNumber } from '../../ui/format';
import { SmsTextCount } from './sms-text-count';
import { dailyUsage } from './sending-limit';

export type CampaignChannel = 'email' | 'sms';

const WHO: Record<CampaignChannel, string> = {
  email: 'subscribed contacts with an email address',
  sms: 'contacts with a mobile number who have not opted out',
};

/** '1 person', '240 people'. */
export const people = (n: number) => `${formatNumber(n)} ${n === 1 ? 'person' : 'people'}`;

/** 'Youth Parents', 'Youth Parents and Choir', 'A, B and C'. */
export function listNames(count: RecipientCount): string {
  const names = count.lists.map((l) => l.name);
  return names.length <= 1 ? (names[0] ?? 'no list') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Nothing reaches many people in one click: a send first counts who it reaches (the same query the
 * send uses) and asks, naming the lists and the number of people (and for SMS the texts it uses);
 * scheduling to lists nobody can receive yet asks too.
 */
export function useSendConfirmation(channel: CampaignChannel) {
  const utils = trpc.useUtils();
  const { user } = useSession();
  const churchName = user?.churchName ?? '';

  const count = async (listIds: number[]): Promise<RecipientCount | null> => {
    try {
      const q = channel === 'email' ? utils.emailCampaigns.recipientCount : utils.smsCampaigns.recipientCount;
      return await q.fetch({ listIds }, { staleTime: 0 });
    } catch (err) {
      showFailure({ errorTitle: 'Failed to count recipients' }, err);
      return null;
    }
  };

  /** The church's daily limit and email warm-up (null when it cannot be read: the server still checks). */
  const sendingLimit = async (): Promise<AccountStatus | null> => {
    try {
      return await utils.account.status.fetch(undefined, { staleTime: 0 });
    } catch {
      return null;
    }
  };

  /** Ask before sending `name` to its lists now; `onConfirm` sends. */
  const confirmSend = async (o: { name: string; listIds: number[]; content?: string; onConfirm: () => void }) => {
    const [c, limit] = await Promise.all([count(o.listIds), sendingLimit()]);
    if (!c) return;
    const limited = limit && limit.limit !== null ? limit : null;
    if (limited && c.recipients > (limited.remaining ?? 0)) {
      modals.openConfirmModal({
        title: 'Over the daily limit',
        children: <Text size="sm">{overDailyLimitMessage(limited, c.recipients)}</Text>,
        labels: { confirm: 'OK', cancel: 'Cancel' },
        cancelProps: { style: { display: 'none' } },
        closeButtonProps: { 'aria-label': 'Close' },
      });
      return;
    }
    const lists = listNames(c);
    if (c.recipients === 0) {
      modals.openConfirmModal({
        title: 'Nobody to send to',
        children: (
          <Text size="sm">
            Nobody on {lists} can receive this campaign: only {WHO[channel]} are sent to.
          </Text>
        ),
        labels: { confirm: 'OK', cancel: 'Cancel' },
        cancelProps: { style: { display: 'none' } },
      });
      return;
    }
    const warmup =
      channel === 'email' && limit?.emailWarmup ? emailWarmupSendSentence(limit.emailWarmup, c.recipients) : null;
    const texts = channel === 'sms' ? smsSegmentsOfMessage(o.content ?? '', churchName).segments * c.recipients : 0;
    modals.openConfirmModal({
      title: `Send ${o.name}?`,
      children: (
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Send to {people(c.recipients)} on {lists}?
          </Text>
          {channel === 'sms' ? <SmsTextCount content={o.content ?? ''} recipients={c.recipients} /> : null}
          {c.suppressed ? <Text size="sm">{suppressedSentence(c.suppressed)}</Text> : null}
          {warmup ? <Text size="sm">{warmup}</Text> : null}
          <Text size="sm" c="dimmed">
            Only {WHO[channel]} are counted. Once sent, it cannot be called back.
          </Text>
          {limited ? (
            <Text size="sm">
              {dailyLimitReason(limited)} {dailyUsage(limited)}
            </Text>
          ) : null}
        </Stack>
      ),
      labels: {
        confirm:
          channel === 'sms'
            ? `Send ${formatNumber(texts)} ${texts === 1 ? 'text' : 'texts'}`
            : `Send to ${people(c.recipients)}`,
        cancel: 'Cancel',
      },
      onConfirm: o.onConfirm,
    });
  };

  /** Before scheduling: when nobody on the lists can receive it yet, ask; otherwise go on. */
  const confirmSchedule = async (o: { listIds: number[]; onConfirm: () => void }) => {
    const c = await count(o.listIds);
    if (!c) return;
    if (c.recipients > 0) return o.onConfirm();
    modals.openConfirmModal({
      title: 'Nobody to send to yet',
      children: (
        <Text size="sm">
          Nobody on {listNames(c)} can receive this campaign right now: only {WHO[channel]} are sent to. If nobody is
          added before its time, it will fail. Schedule it anyway?
        </Text>
      ),
      labels: { confirm: 'Schedule anyway', cancel: 'Cancel' },
      onConfirm: o.onConfirm,
    });
  };

  return { confirmSend, confirmSchedule };
}
