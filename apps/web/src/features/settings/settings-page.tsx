import { Button, Group, Paper, Select, Skeleton, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { EVENT_RETENTION_CHOICES, updateChurchSettingsSchema } from '@lampstand/api/schemas/settings';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { TimeZoneSelect } from '../../ui/time-zone';
import { CountrySelect } from '../../ui/country-select';

/** 'Keep activity for': the choices, and the church's own number of days if it set another over the API. */
function retentionOptions(current: number): { value: string; label: string }[] {
  const options: { value: string; label: string }[] = EVENT_RETENTION_CHOICES.map((c) => ({
    value: String(c.days),
    label: c.label,
  }));
  if (!EVENT_RETENTION_CHOICES.some((c) => c.days === current)) {
    options.push({ value: String(current), label: `${current} days` });
  }
  return options.sort((a, b) => Number(a.value) - Number(b.value));
}

/** Settings → Church details (/settings/church, the first section): the details used across Lampstand. */
export function ChurchDetailsSection() {
  const settings = trpc.settings.get.useQuery();
  const utils = trpc.useUtils();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      postalAddress: '',
      taxId: '',
      timeZone: 'UTC',
      country: undefined as string | undefined,
      eventRetentionDays: 730,
    },
    validate: schemaResolver(updateChurchSettingsSchema, { sync: true }),
  });
  useEffect(() => {
    if (settings.data)
      form.setValues({
        postalAddress: settings.data.postalAddress ?? '',
        taxId: settings.data.taxId ?? '',
        timeZone: settings.data.timeZone,
        country: settings.data.country ?? undefined,
        eventRetentionDays: settings.data.eventRetentionDays,
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.data]);
  // '/settings/church#time-zone' (the link beside a time shown in UTC): the time zone, in view and focused.
  const { hash } = useLocation();
  const loaded = !!settings.data;
  useEffect(() => {
    if (!loaded || hash !== '#time-zone') return;
    const input = document.getElementById('time-zone');
    input?.scrollIntoView({ block: 'center' });
    input?.focus({ preventScroll: true });
  }, [loaded, hash]);
  const save = useSave(trpc.settings.update, {
    success: ['Settings saved', 'Your campaign footer and times now use these settings.'],
    errorTitle: 'Failed to save settings',
    onSuccess: (data) => utils.settings.get.setData(undefined, data),
  });
  return (
    <>
      <Paper withBorder p="lg" maw={720} mt="lg">
        <Title order={2} size="h4" mb="md">
          Church details
        </Title>
        {settings.isLoading ? (
          <Skeleton h={120} />
        ) : (
          <form
            onSubmit={form.onSubmit((v) => {
              const before = settings.data?.eventRetentionDays;
              // Shortening how long activity is kept deletes the older activity tonight: ask first.
              if (before !== undefined && v.eventRetentionDays < before)
                confirmDestructive({
                  title: 'Keep activity for less time?',
                  text: `Activity older than ${v.eventRetentionDays} days is deleted tonight and cannot be brought back.`,
                  confirm: 'Save and delete older activity',
                  onConfirm: () => save.mutate(v),
                });
              else save.mutate(v);
            })}
          >
            <Stack>
              <Text size="sm">
                <b>Church name:</b> {settings.data?.churchName}
              </Text>
              <Textarea
                label="Postal address"
                description="Shown in the footer of every email campaign, as anti-spam laws require."
                autosize
                minRows={3}
                placeholder={'1 Church Street\nSpringfield NSW 2000'}
                {...form.getInputProps('postalAddress')}
              />
              <TextInput
                label="Tax ID"
                description="Printed with your name and postal address on giving statements (an EIN in the US)."
                {...form.getInputProps('taxId')}
              />
              <TimeZoneSelect id="time-zone" {...form.getInputProps('timeZone')} />
              <CountrySelect
                placeholder="Choose your country"
                {...form.getInputProps('country')}
                value={form.values.country ?? null}
              />
              <Select
                label="Keep activity for"
                description="How long each person's activity (sign-ups, gifts, emails, answers) is kept; older activity is deleted each day."
                allowDeselect={false}
                data={retentionOptions(form.values.eventRetentionDays)}
                {...form.getInputProps('eventRetentionDays')}
                value={String(form.values.eventRetentionDays)}
                onChange={(v) => form.setFieldValue('eventRetentionDays', Number(v))}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
    </>
  );
}
