import { Badge, Box, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconBook,
  IconBuildingChurch,
  IconCircle,
  IconGift,
  IconHandStop,
  IconHeart,
  IconMicrophone,
  IconMusic,
  IconSpeakerphone,
  IconSun,
  IconUsers,
  IconVideo,
} from '@tabler/icons-react';
import { formatDayDate, formatWallTime } from '../../ui/format';
import {
  ASSIGNMENT_STATUS_LABELS,
  PLAN_STATUS_LABELS,
  type Assignment,
  type ItemType,
  type PlanSummary,
} from '@lampstand/api/schemas/service-planner';
import { KEYS } from '@lampstand/api/shared/music';
import { nashvilleNumber } from '@lampstand/api/shared/chordpro';
import { renderChordPro } from './chordpro';

const ICONS = {
  circle: IconCircle,
  hand: IconHandStop,
  music: IconMusic,
  pray: IconBuildingChurch,
  book: IconBook,
  microphone: IconMicrophone,
  gift: IconGift,
  speakerphone: IconSpeakerphone,
  sun: IconSun,
  video: IconVideo,
  users: IconUsers,
  heart: IconHeart,
} as const;

export function ItemTypeIcon({
  type,
  size = 28,
}: {
  type: Pick<ItemType, 'icon' | 'color' | 'name'> | null;
  size?: number;
}) {
  const Icon = ICONS[(type?.icon ?? 'circle') as keyof typeof ICONS] ?? IconCircle;
  return (
    <ThemeIcon color={type?.color ?? 'gray'} variant="light" size={size} radius="xl" aria-hidden>
      <Icon size={Math.round(size * 0.6)} />
    </ThemeIcon>
  );
}

/** '9:30 AM' from 'HH:MM', as the church writes times ('9:30 am' in Australia, '09:30' in the UK). */
export function timeLabel(hhmm: string | null | undefined): string {
  if (!hhmm) return '';
  return formatWallTime(hhmm) || hhmm;
}

/** 'Sun, Jan 5, 2025' from 'YYYY-MM-DD' ('Sun 5 Jan 2025' in Australia). */
export function dayLabel(date: string): string {
  return formatDayDate(date) || date;
}

export function minutesLabel(n: number): string {
  if (n < 60) return `${n} min`;
  const h = Math.floor(n / 60);
  const m = n % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

const PLAN_COLORS = { draft: 'gray', published: 'blue', completed: 'green' } as const;
export function PlanStatusBadge({ status }: { status: PlanSummary['status'] }) {
  return (
    <Badge color={PLAN_COLORS[status]} variant="light">
      {PLAN_STATUS_LABELS[status]}
    </Badge>
  );
}

const ASSIGNMENT_COLORS = { scheduled: 'gray', confirmed: 'green', declined: 'red' } as const;
export function AssignmentStatusBadge({ status }: { status: Assignment['status'] }) {
  return (
    <Badge color={ASSIGNMENT_COLORS[status]} variant="light">
      {ASSIGNMENT_STATUS_LABELS[status]}
    </Badge>
  );
}

export const KEY_OPTIONS = KEYS.map((k) => ({
  value: k,
  label: k.endsWith('m') ? `${k.slice(0, -1)} minor` : `${k} major`,
}));

/** A ChordPro chart, chords over their words, in `toKey` when given. */
export function ChordChart({
  chords,
  fromKey,
  toKey,
  numbers = false,
}: {
  chords: string;
  fromKey?: string | null;
  toKey?: string | null;
  /** Nashville numbers instead of chord names (needs a key). */
  numbers?: boolean;
}) {
  const chart = renderChordPro(chords, { fromKey, toKey });
  const shownKey = chart.key;
  const label = (chord: string) => (numbers && shownKey ? nashvilleNumber(chord, shownKey) : chord);
  return (
    <Stack gap="md" className="chord-chart">
      {chart.sections.map((section, si) => (
        <Box
          key={si}
          pl={section.type === 'chorus' ? 'md' : 0}
          py={section.type === 'chorus' ? 6 : 0}
          data-section={section.type}
          style={
            section.type === 'chorus'
              ? {
                  borderLeft: '4px solid var(--mantine-color-indigo-6)',
                  background: 'var(--mantine-color-indigo-0)',
                  borderRadius: 4,
                }
              : undefined
          }
        >
          {section.label ? (
            <Text size="xs" fw={700} tt="uppercase" c={section.type === 'chorus' ? 'indigo.9' : 'dark.6'} mb={2}>
              {section.label}
            </Text>
          ) : null}
          {section.lines.map((line, li) =>
            line.kind === 'comment' ? (
              <Text key={li} fw={700} size="sm" mt={4}>
                {line.text}
              </Text>
            ) : line.kind === 'empty' ? null : (
              <Group
                key={li}
                gap={0}
                align="flex-end"
                wrap="wrap"
                style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}
              >
                {line.segments.map((s, i) => (
                  <Stack key={i} gap={0}>
                    <Text
                      component="span"
                      size="sm"
                      fw={700}
                      c="indigo.9"
                      style={{ whiteSpace: 'pre', minHeight: '1.3em' }}
                    >
                      {s.chord ? `${label(s.chord)} ` : ' '}
                    </Text>
                    <Text component="span" size="sm" style={{ whiteSpace: 'pre' }}>
                      {s.lyrics || ' '}
                    </Text>
                  </Stack>
                ))}
              </Group>
            ),
          )}
        </Box>
      ))}
    </Stack>
  );
}
