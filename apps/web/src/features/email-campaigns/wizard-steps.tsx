import { Alert, Radio, Select, Stack, TextInput } from '@mantine/core';
import { formatNumber } from '../../ui/format';
import { ZonedDateTimePicker } from '../../ui/zoned-date-time-picker';
import { nextWholeHour } from '../../lib/time-zone';
import type { RouterOutputs } from '@lampstand/api';
import type { CampaignForm } from './wizard-values';

/** Step 1: the campaign's name, subject line and contact list (email or both). */
export function BasicsStep({
  form,
  lists,
}: {
  form: CampaignForm;
  lists: { data?: RouterOutputs['contactLists']['list']; isLoading: boolean; isSuccess: boolean };
}) {
  const v = form.values;
  const listOptions = (lists.data ?? [])
    .filter((l) => l.type === 'email' || l.type === 'both')
    .map((l) => ({ value: String(l.id), label: `${l.name} (${formatNumber(l.contactCount ?? 0)} contacts)` }));
  return (
    <Stack maw={720}>
      <TextInput
        label="Campaign Name"
        withAsterisk
        placeholder="Easter Sunday invitation"
        {...form.getInputProps('name')}
      />
      <TextInput
        label="Subject Line"
        withAsterisk
        placeholder="Join us this Easter, {{firstName}}"
        {...form.getInputProps('subject')}
      />
      <Select
        label="Contact List"
        withAsterisk
        placeholder={lists.isLoading ? 'Loading lists...' : listOptions.length ? 'Choose a list' : 'No email lists yet'}
        data={listOptions}
        value={v.listIds[0] ? String(v.listIds[0]) : null}
        onChange={(id) => form.setFieldValue('listIds', id ? [Number(id)] : [])}
        error={form.errors.listIds}
      />
      {lists.isSuccess && listOptions.length === 0 ? (
        <Alert color="indigo">Create a contact list of type email or both on the Contacts page first.</Alert>
      ) : null}
    </Stack>
  );
}

/** Step 3: save as a draft, send right after saving, or schedule (in the church's time zone). */
export function ScheduleStep({ form, timeZone }: { form: CampaignForm; timeZone: string }) {
  const v = form.values;
  return (
    <Stack maw={720}>
      <Radio.Group
        label="When should it go out?"
        value={v.when}
        onChange={(when) => {
          form.setFieldValue('when', when);
          if (when === 'later' && !v.scheduledFor)
            form.setFieldValue('scheduledFor', nextWholeHour(timeZone).toISOString());
        }}
      >
        <Stack mt="xs">
          <Radio value="draft" label="Save as draft" description="Nothing is sent; send it later from the list." />
          <Radio value="now" label="Send immediately after saving" />
          <Radio value="later" label="Schedule for later" />
        </Stack>
      </Radio.Group>
      {v.when === 'later' ? (
        <ZonedDateTimePicker timeZone={timeZone} withAsterisk {...form.getInputProps('scheduledFor')} />
      ) : null}
    </Stack>
  );
}
