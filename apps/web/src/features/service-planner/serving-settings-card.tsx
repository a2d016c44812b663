import { Button, Card, Checkbox, Group, NumberInput, Skeleton, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import type { z } from 'zod';
import { updatePlannerSettingsSchema } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';

type Values = { reminderDays: number[]; substituteHours: number };
const DAYS = [7, 6, 5, 4, 3, 2, 1];

/**
 * The planner's settings: the days before a plan that reminders go to the people
 * who accepted or have not answered, and how long teammates have to cover a declined slot before
 * the leader is told.
 */
export function ServingSettingsCard() {
  const settings = trpc.servicePlanner.settings.get.useQuery();
  const utils = trpc.useUtils();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { reminderDays: [3, 1], substituteHours: 48 },
    validate: schemaResolver(updatePlannerSettingsSchema as z.ZodType<Values>, { sync: true }),
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (settings.data) {
      setValues(settings.data);
      resetDirty(settings.data);
    }
  }, [settings.data, setValues, resetDirty]);
  const update = useSave(trpc.servicePlanner.settings.update, {
    success: 'Reminder settings saved',
    errorTitle: 'Failed to save reminder settings',
    form,
    onSuccess: (saved) => utils.servicePlanner.settings.get.setData(undefined, saved),
  });
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="xs">
        Reminders and substitutes
      </Title>
      {settings.isLoading ? (
        <Skeleton height={160} />
      ) : (
        <form onSubmit={form.onSubmit((v) => update.mutate(v))} noValidate>
          <Stack gap="sm">
            <Checkbox.Group
              label="Remind people before a plan"
              description="By email and text, to everyone who accepted or has not answered yet."
              value={form.values.reminderDays.map(String)}
              onChange={(v) => form.setFieldValue('reminderDays', v.map(Number))}
              error={form.errors.reminderDays}
            >
              <Group gap="xs" mt={6}>
                {DAYS.map((d) => (
                  <Checkbox key={d} value={String(d)} label={d === 1 ? '1 day' : `${d} days`} />
                ))}
              </Group>
            </Checkbox.Group>
            <NumberInput
              label="Hours to find a substitute"
              description="When nobody accepts to cover a declined slot in this time, you are told."
              min={1}
              max={336}
              allowDecimal={false}
              {...form.getInputProps('substituteHours')}
            />
            <Text size="xs" c="dimmed">
              Leader notices go to your account email.
            </Text>
            <Button type="submit" variant="light" loading={update.isPending} disabled={!form.isDirty()}>
              Save
            </Button>
          </Stack>
        </form>
      )}
    </Card>
  );
}
