import { Button, Group, Modal, NumberInput, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AdminUser } from '@lampstand/api';
import { setDailyLimitSchema } from '@lampstand/api/schemas/admin';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';

/** What a church's daily limit is now, in words: '100 a day (email not verified)', 'No limit', '500 a day (set by you)'. */
export function dailyLimitLabel(u: AdminUser): string {
  if (u.dailyRecipientLimit !== null) return `${formatNumber(u.dailyRecipientLimit)} a day (set by an administrator)`;
  return u.emailVerified ? 'No limit (email verified)' : '100 a day (email not verified)';
}

/**
 * An administrator lifts or lowers a church's daily recipient limit, or returns it to the default
 * (100 people a day until the account email is verified, then none).
 */
export function DailyLimitDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [mode, setMode] = useState<'default' | 'custom'>(user.dailyRecipientLimit === null ? 'default' : 'custom');
  const [value, setValue] = useState<number | string>(user.dailyRecipientLimit ?? 1000);
  const [error, setError] = useState<string | null>(null);
  const save = useSave(trpc.admin.setDailyLimit, {
    success: (updated) => ['Daily limit saved', `${updated.churchName}: ${dailyLimitLabel(updated)}`],
    errorTitle: 'Failed to save the daily limit',
    invalidate: (utils) => utils.admin.users.invalidate(),
    onSuccess: onClose,
  });
  const submit = () => {
    const input = {
      id: user.id,
      dailyRecipientLimit: mode === 'default' ? null : typeof value === 'number' ? value : Number.NaN,
    };
    const checked = setDailyLimitSchema.safeParse(input);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Invalid limit');
    setError(null);
    save.mutate(checked.data);
  };
  return (
    <Modal opened onClose={onClose} title={`Daily limit for ${user.churchName}`} centered>
      <Stack>
        <Text size="sm">
          How many people this church&apos;s email and SMS campaigns may reach in 24 hours. Now: {dailyLimitLabel(user)}
          .
        </Text>
        <Radio.Group label="Limit" value={mode} onChange={(v) => setMode(v)}>
          <Stack mt="xs" gap="xs">
            <Radio value="default" label="Default: 100 people a day until the email is verified, then no limit" />
            <Radio value="custom" label="A limit of my own" />
          </Stack>
        </Radio.Group>
        {mode === 'custom' ? (
          <NumberInput
            label="People a day"
            min={0}
            max={10_000_000}
            allowDecimal={false}
            thousandSeparator=","
            value={value}
            onChange={setValue}
            error={error}
          />
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={save.isPending} onClick={submit}>
            Save limit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
