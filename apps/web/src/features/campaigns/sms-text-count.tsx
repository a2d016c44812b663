import { Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { smsSegmentsOfMessage, TYPICAL_MERGE_VALUES } from '@lampstand/api/shared/sms';
import { useSession } from '../../shell/session';
import { formatNumber } from '../../ui/format';

const texts = (n: number) => `${formatNumber(n)} ${n === 1 ? 'text' : 'texts'}`;

/** How many texts a message uses per person, in plain words: the church's name and typical names filled in. */
export function useSmsSegments(content: string) {
  const { user } = useSession();
  return smsSegmentsOfMessage(content, user?.churchName ?? '');
}

/**
 * 'This message counts as 2 texts per person — 240 texts to this list', with the technical detail
 * (characters, encoding, segments) in a tooltip.
 */
export function SmsTextCount({ content, recipients }: { content: string; recipients?: number }) {
  const seg = useSmsSegments(content);
  const detail =
    `${formatNumber(seg.characters)} characters with merge tags filled at a typical length ` +
    `(${TYPICAL_MERGE_VALUES.firstName} ${TYPICAL_MERGE_VALUES.lastName}). ` +
    `${seg.encoding} encoding: ${seg.segments} ${seg.segments === 1 ? 'segment' : 'segments'} of up to ` +
    `${seg.perSegment} characters.` +
    (seg.encoding === 'UCS-2' ? ' An emoji or a special character makes each text shorter.' : '');
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="sms-counter">
      <Text size="sm">
        This message counts as {texts(seg.segments)} per person
        {recipients !== undefined ? ` — ${texts(seg.segments * recipients)} to this list` : ''}
      </Text>
      <Tooltip label={detail} multiline w={300} withArrow events={{ hover: true, focus: true, touch: true }}>
        <IconInfoCircle
          size={18}
          tabIndex={0}
          role="img"
          aria-label={`Details: ${detail}`}
          style={{ flexShrink: 0, color: 'var(--mantine-color-dimmed)' }}
        />
      </Tooltip>
    </Group>
  );
}
