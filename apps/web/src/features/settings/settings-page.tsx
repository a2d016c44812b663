import { Button, Group, Paper, Select, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { COUNTRY_CODES } from '@lampstand/api/schemas/contacts';
import { updateChurchSettingsSchema } from '@lampstand/api/schemas/settings';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { PageHeader } from '../../ui/page-header';
import { TimeZoneSelect } from '../../ui/time-zone';
import { SocialSettingsSection } from '../social-blast/social-settings';
import { GivingSettings } from '../show-up/giving-settings';
import { ApiKeysSection } from './api-keys-section';
import { PublicProfileSection } from './public-profile-section';
import { IntegrationsSection } from './webhooks/integrations-section';

export function SettingsPage() {
  const settings = trpc.settings.get.useQuery();
  const utils = trpc.useUtils();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      postalAddress: '',
      timeZone: 'UTC',
      defaultCountryCode: '+61' as (typeof COUNTRY_CODES)[number]['value'],
    },
    validate: schemaResolver(updateChurchSettingsSchema, { sync: true }),
  });
  useEffect(() => {
    if (settings.data)
      form.setValues({
        postalAddress: settings.data.postalAddress ?? '',
        timeZone: settings.data.timeZone,
        defaultCountryCode: settings.data.defaultCountryCode,
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.data]);
  // '/settings#time-zone' (the link beside a time shown in UTC): the time zone, in view and focused.
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
      <PageHeader title="Settings" description="Details about your church used across Lampstand." />
      <Paper withBorder p="lg" maw={720}>
        {settings.isLoading ? (
          <Skeleton h={120} />
        ) : (
          <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
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
              <TimeZoneSelect id="time-zone" {...form.getInputProps('timeZone')} />
              <Select
                label="Default country"
                description="Phone numbers without a country code (CSV imports, sign-up forms, the API) are read in this country."
                allowDeselect={false}
                data={COUNTRY_CODES.map((c) => ({ value: c.value, label: c.label }))}
                {...form.getInputProps('defaultCountryCode')}
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
      <PublicProfileSection />
      <SocialSettingsSection />
      <GivingSettings />
      <ApiKeysSection />
      <IntegrationsSection />
    </>
  );
}
