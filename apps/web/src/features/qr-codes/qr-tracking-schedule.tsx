import { Accordion, ActionIcon, Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { QR_MAX_SCHEDULE } from '@lampstand/api/schemas/qr-codes';
import type { QrForm } from './qr-form-values';
import { NamedDateTimePicker } from '../../ui/named-date-time-picker';

/** The folded sections: campaign tracking (UTM) and the scheduled destinations of a short link. */
export function TrackingAndSchedule({ form }: { form: QrForm }) {
  const v = form.values;
  const [opened, setOpened] = useState<string[]>([]);
  // A section with a problem in it stays open, so the message can be read beside its field.
  const withErrors = Object.keys(form.errors).flatMap((k) =>
    k.startsWith('schedule') ? ['schedule'] : k.startsWith('utm') ? ['utm'] : [],
  );
  return (
    <Accordion
      variant="contained"
      multiple
      value={[...new Set([...opened, ...withErrors])]}
      onChange={setOpened}
      transitionDuration={0}
    >
      <Accordion.Item value="utm">
        <Accordion.Control>Campaign tracking (UTM)</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            <Text size="xs" c="dimmed">
              Added to the destination, so your website analytics show which flyer brought people.
            </Text>
            <TextInput label="UTM source" placeholder="flyer" {...form.getInputProps('utmSource')} />
            <TextInput label="UTM medium" placeholder="print" {...form.getInputProps('utmMedium')} />
            <TextInput label="UTM campaign" placeholder="easter" {...form.getInputProps('utmCampaign')} />
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="schedule">
        <Accordion.Control>Scheduled destinations</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            <Text size="xs" c="dimmed">
              Send scans somewhere else for a while, e.g. the Christmas services page until December 26, then back to
              the URL above. Needs a short link. Without a start it applies from now; without an end, until you remove
              it.
            </Text>
            {form.errors.schedule ? (
              <Alert color="red" p="xs" data-form-error>
                {form.errors.schedule}
              </Alert>
            ) : null}
            {v.schedule.map((_, i) => (
              <Stack
                key={i}
                gap="xs"
                p="sm"
                style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-end">
                  <TextInput
                    style={{ flex: 1 }}
                    label={`Scheduled URL ${i + 1}`}
                    placeholder="https://"
                    {...form.getInputProps(`schedule.${i}.url`)}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Remove scheduled destination ${i + 1}`}
                    onClick={() => form.removeListItem('schedule', i)}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
                <Group grow wrap="wrap">
                  <NamedDateTimePicker
                    label="From"
                    placeholder="Now"
                    clearable
                    valueFormat="MMM D, YYYY h:mm A"
                    {...form.getInputProps(`schedule.${i}.startsAt`)}
                  />
                  <NamedDateTimePicker
                    label="Until"
                    placeholder="No end"
                    clearable
                    valueFormat="MMM D, YYYY h:mm A"
                    {...form.getInputProps(`schedule.${i}.endsAt`)}
                  />
                </Group>
              </Stack>
            ))}
            <Button
              variant="light"
              leftSection={<IconPlus size={18} />}
              disabled={v.schedule.length >= QR_MAX_SCHEDULE}
              onClick={() => form.insertListItem('schedule', { url: '', startsAt: null, endsAt: null })}
            >
              Add scheduled destination
            </Button>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
