import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Radio,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { smsCampaignFieldsSchema } from '@lampstand/api/schemas/sms-campaigns';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { nextWholeHour, useChurchTimeZone } from '../../lib/time-zone';
import { formatNumber } from '../../ui/format';
import { ZonedDateTimePicker } from '../../ui/zoned-date-time-picker';
import { useSendConfirmation } from '../campaigns/send-confirmation';
import { SmsTextCount } from '../campaigns/sms-text-count';

export type SmsCampaign = RouterOutputs['smsCampaigns']['list'][number];
/** The form holds what the API takes (scheduledFor as a UTC instant), so the shared schema checks it. */
type Values = Required<z.input<typeof smsCampaignFieldsSchema>>;

/** People the chosen lists reach now (undefined until a list is chosen). */
function useRecipients(listIds: Values['listIds']): number | undefined {
  const ids = listIds.map(Number);
  const count = trpc.smsCampaigns.recipientCount.useQuery({ listIds: ids }, { enabled: ids.length > 0 });
  return ids.length > 0 ? count.data?.recipients : undefined;
}

const validate = schemaResolver(smsCampaignFieldsSchema, { sync: true });

export function CampaignForm({
  campaign,
  initialListId,
  onDone,
}: {
  campaign?: SmsCampaign;
  initialListId?: string;
  onDone: () => void;
}) {
  const lists = trpc.contactLists.list.useQuery({ include_counts: true });
  const timeZone = useChurchTimeZone();
  const { confirmSchedule } = useSendConfirmation('sms');
  const [tab, setTab] = useState<string>('details');
  const listId = campaign?.listIds[0] ?? initialListId;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: campaign?.name ?? '',
      content: campaign?.content ?? '',
      listIds: listId ? [listId] : [],
      status:
        campaign && ['draft', 'scheduled', 'ready'].includes(campaign.status)
          ? (campaign.status as Values['status'])
          : 'draft',
      scheduledFor: campaign?.scheduledFor ?? null,
    },
    validate,
  });
  const saved = {
    errorTitle: 'Error',
    invalidate: (utils: SaveUtils) => utils.smsCampaigns.list.invalidate(),
    onSuccess: onDone,
  };
  const create = useSave(trpc.smsCampaigns.create, {
    ...saved,
    success: 'Campaign created',
    errorPrefix: 'Failed to create campaign',
  });
  const update = useSave(trpc.smsCampaigns.update, {
    ...saved,
    success: 'Campaign updated',
    errorPrefix: 'Failed to update campaign',
  });
  const v = form.values;
  const recipients = useRecipients(v.listIds);
  const smsLists = (lists.data ?? []).filter((l) => l.type === 'sms' || l.type === 'both');
  const saving = create.isPending || update.isPending;
  const write = (values: Values) => {
    const body = { ...values, scheduledFor: values.status === 'scheduled' ? values.scheduledFor : null };
    if (campaign) update.mutate({ id: campaign.id, ...body });
    else create.mutate(body);
  };
  const submit = form.onSubmit(
    (values) =>
      values.status === 'scheduled'
        ? void confirmSchedule({ listIds: values.listIds.map(Number), onConfirm: () => write(values) })
        : write(values),
    (errors) => setTab(errors.name || errors.content ? 'details' : errors.listIds ? 'audience' : 'schedule'),
  );
  // The spec: submit is disabled while saving or while the form is invalid; the reasons show beside it.
  const problems = [...new Set(Object.values(validate(v)).filter((m) => typeof m === 'string'))];
  const chosen = smsLists.find((l) => String(l.id) === String(v.listIds[0]));
  return (
    <Paper withBorder p="lg" mb="lg" maw={760}>
      <Title order={4} mb="sm">
        {campaign ? 'Edit SMS Campaign' : 'New SMS Campaign'}
      </Title>
      <form onSubmit={submit} noValidate>
        <Tabs value={tab} onChange={(t) => setTab(t ?? 'details')} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="details">Campaign Details</Tabs.Tab>
            <Tabs.Tab value="audience">Audience</Tabs.Tab>
            <Tabs.Tab value="schedule">Schedule & Review</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="details">
            <Stack>
              <TextInput label="Campaign Name" withAsterisk {...form.getInputProps('name')} />
              <Textarea
                label="Message"
                withAsterisk
                autosize
                minRows={4}
                description="Merge tags: {{firstName}}, {{lastName}}, {{churchName}}"
                {...form.getInputProps('content')}
              />
              <SmsTextCount content={v.content} recipients={recipients} />
              <Group justify="flex-end">
                <Button onClick={() => setTab('audience')}>Next</Button>
              </Group>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="audience">
            <Stack>
              {lists.isSuccess && smsLists.length === 0 ? (
                <Alert color="indigo" title="No SMS lists yet">
                  <Anchor component={Link} to="/contacts?tab=lists">
                    Create a contact list of type SMS or both
                  </Anchor>{' '}
                  first.
                </Alert>
              ) : (
                <Radio.Group
                  label="Send to"
                  withAsterisk
                  value={v.listIds[0] !== undefined ? String(v.listIds[0]) : null}
                  onChange={(id) => form.setFieldValue('listIds', [id])}
                  error={form.errors.listIds}
                >
                  <Stack mt="xs" gap="xs">
                    {smsLists.map((l) => (
                      <Radio
                        key={l.id}
                        value={String(l.id)}
                        label={`${l.name} (${formatNumber(l.contactCount ?? 0)} contacts)`}
                      />
                    ))}
                  </Stack>
                </Radio.Group>
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setTab('details')}>
                  Previous
                </Button>
                <Button disabled={smsLists.length === 0 || v.listIds.length === 0} onClick={() => setTab('schedule')}>
                  Next
                </Button>
              </Group>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="schedule">
            <Stack>
              <Radio.Group
                label="Status"
                value={v.status}
                onChange={(status) => {
                  form.setFieldValue('status', status);
                  if (status === 'scheduled' && !v.scheduledFor)
                    form.setFieldValue('scheduledFor', nextWholeHour(timeZone).toISOString());
                }}
              >
                <Stack mt="xs" gap="xs">
                  <Radio value="draft" label="Save as draft" />
                  <Radio value="scheduled" label="Schedule for later" />
                  <Radio value="ready" label="Ready to Send" />
                </Stack>
              </Radio.Group>
              {v.status === 'scheduled' ? (
                <ZonedDateTimePicker timeZone={timeZone} withAsterisk {...form.getInputProps('scheduledFor')} />
              ) : null}
              <Paper withBorder p="sm" bg="gray.0">
                <Stack gap={4}>
                  <Text size="sm">
                    <b>{v.name || 'Untitled'}</b> to <b>{chosen?.name ?? 'no list chosen'}</b>
                  </Text>
                  <SmsTextCount content={v.content} recipients={recipients} />
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                    {v.content || 'No message yet'}
                  </Text>
                </Stack>
              </Paper>
              {problems.length ? (
                <Text size="sm" c="red.8" id="sms-form-problems">
                  Before saving: {problems.join(' · ')}
                </Text>
              ) : null}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setTab('audience')}>
                  Previous
                </Button>
                <Group>
                  <Button variant="default" onClick={onDone}>
                    Cancel
                  </Button>
                  <Button
                    type="submit"
                    disabled={saving || problems.length > 0}
                    aria-describedby={problems.length ? 'sms-form-problems' : undefined}
                  >
                    {saving ? 'Saving...' : campaign ? 'Update Campaign' : 'Create Campaign'}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </form>
    </Paper>
  );
}
