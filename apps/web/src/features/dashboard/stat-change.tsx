import { Group, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';

/** '+12%', '+3.2%', '-5.1%', '0%' (one decimal at most). */
export function formatChange(n: number): string {
  const abs = Math.abs(n);
  const digits = Number.isInteger(abs) ? abs.toFixed(0) : abs.toFixed(1);
  return `${n > 0 ? '+' : n < 0 ? '-' : ''}${digits}%`;
}

export function StatChange({ value, note }: { value: number | null; note: string }) {
  if (value === null)
    return (
      <Group gap={4} mt={4}>
        <Text size="sm" c="dimmed" fw={600}>
          —
        </Text>
        <Text size="sm" c="dimmed">
          no earlier data
        </Text>
      </Group>
    );
  const up = value > 0;
  const down = value < 0;
  return (
    <Group gap={4} mt={4}>
      <Text
        size="sm"
        c={up ? '#1f6f31' : down ? 'red.9' : 'dimmed'}
        fw={600}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 2 }}
      >
        {up && <IconArrowUpRight size={14} aria-hidden />}
        {down && <IconArrowDownRight size={14} aria-hidden />}
        {formatChange(value)}
      </Text>
      <Text size="sm" c="dimmed">
        {note}
      </Text>
    </Group>
  );
}
