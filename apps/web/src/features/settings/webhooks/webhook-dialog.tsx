import { Button, Checkbox, Code, Group, Modal, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { EVENT_TYPES, type EventType } from '@lampstand/api/schemas/events';
import { EVENT_DESCRIPTIONS } from '@lampstand/api/shared/event-words';
import { createWebhookSchema } from '@lampstand/api/schemas/webhooks';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../../lib/trpc';
import { useSave } from '../../../lib/use-save';
import { ForDeveloper } from '../../../ui/for-developer';

/** The types by what happened ('A contact was added'); their ids are for developers. */
const EVENT_CHOICES = EVENT_TYPES.map((t) => ({ value: t, label: EVENT_DESCRIPTIONS[t] }));

export type Webhook = RouterOutputs['webhooks']['list'][number];

interface Values {
  url: string;
  eventTypes: string[] | null;
  description: string;
}

/**
 * Add or edit an endpoint: its URL, the event types it receives (every type, or those chosen) and a
 * description. A new endpoint's secret goes to `onCreated` (shown once by the section).
 */
export function WebhookDialog({
  webhook,
  onClose,
  onCreated,
}: {
  webhook: Webhook | null;
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      url: webhook?.url ?? '',
      eventTypes: webhook ? webhook.eventTypes : null,
      description: webhook?.description ?? '',
    },
    validate: schemaResolver(createWebhookSchema, { sync: true }),
  });
  const invalidate = (utils: ReturnType<typeof trpc.useUtils>) => utils.webhooks.list.invalidate();
  const create = useSave(trpc.webhooks.create, {
    success: ['Endpoint added', 'Copy its signing secret now: it will not be shown again.'],
    errorTitle: 'Failed to add endpoint',
    form,
    invalidate,
    onSuccess: (created) => {
      onCreated(created.secret);
      onClose();
    },
  });
  const update = useSave(trpc.webhooks.update, {
    success: 'Endpoint saved',
    errorTitle: 'Failed to save endpoint',
    form,
    invalidate,
    onSuccess: onClose,
  });
  const all = form.values.eventTypes === null;
  const submit = (v: Values) => {
    const input = { url: v.url, eventTypes: v.eventTypes as EventType[] | null, description: v.description };
    if (webhook) update.mutate({ id: webhook.id, ...input });
    else create.mutate(input);
  };
  return (
    <Modal opened onClose={onClose} title={webhook ? 'Edit endpoint' : 'Add endpoint'} size="lg" centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack>
          <TextInput
            label="Endpoint URL"
            description="Lampstand sends a signed POST here for every event it receives."
            placeholder="https://example.org/webhooks/lampstand"
            required
            data-autofocus
            {...form.getInputProps('url')}
          />
          <Switch
            label="Send every event type"
            checked={all}
            onChange={(e) => form.setFieldValue('eventTypes', e.currentTarget.checked ? null : [])}
          />
          {all ? null : (
            <div>
              {/* Every type in sight, as checkboxes: no list that scrolls inside the dialog (a scrolling
                  dropdown cannot be reached from the keyboard). */}
              <Checkbox.Group
                label="Event types"
                value={form.values.eventTypes ?? []}
                onChange={(v) => form.setFieldValue('eventTypes', v)}
                error={form.errors.eventTypes}
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={6} mt="xs">
                  {EVENT_CHOICES.map((c) => (
                    <Checkbox key={c.value} value={c.value} label={c.label} size="sm" />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
              {form.values.eventTypes?.length ? (
                <ForDeveloper>
                  Event types sent: <Code>{form.values.eventTypes.join(', ')}</Code>
                </ForDeveloper>
              ) : null}
            </div>
          )}
          <Textarea
            label="Description"
            placeholder="Sync to our CRM"
            autosize
            minRows={2}
            {...form.getInputProps('description')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {webhook ? 'Save endpoint' : 'Add endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
