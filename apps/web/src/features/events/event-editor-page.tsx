import { Button, Group, Radio, Select, SimpleGrid, Skeleton, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useId } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { createCalendarEventSchema, EVENT_VISIBILITIES } from '@lampstand/api/schemas/calendar-events';
import { trpc } from '../../lib/trpc';
import { useChurchTimeZone } from '../../lib/time-zone';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { confirmDiscard } from '../../ui/confirm';
import { showFirstError } from '../../ui/first-error';
import { ImageUpload } from '../../ui/image-upload';
import { PageHeader } from '../../ui/page-header';
import { BackLink, EventNotFound } from './loading';
import { ZonedDateTimePicker } from '../../ui/zoned-date-time-picker';
import { DescriptionEditor } from './description-editor';
import { eventValues, type EventValues } from './event-form-values';
import { DiscountCodesEditor, QuestionsEditor, Section, TicketTypesEditor, TimesEditor } from './event-parts';
import { PlaceOnMap } from './place-on-map';
import { VISIBILITY_LABELS, type EventDetail } from './event-words';

const validate = schemaResolver(createCalendarEventSchema, { sync: true });
const absolute = (url: string) => new URL(url, window.location.origin).href;

/** New event, or Edit: the event's every part on one page, checked by the shared schema. */
export function EventEditorPage() {
  const id = Number(useParams().id);
  const editing = Number.isInteger(id) && id > 0;
  const event = trpc.calendar.get.useQuery({ id }, { enabled: editing });
  const back = (
    <BackLink to={editing ? `/events/${id}` : '/events'}>{editing ? 'Back to the event' : 'All events'}</BackLink>
  );
  if (editing && event.isLoading)
    return (
      <Stack maw={720}>
        <Skeleton h={40} w={300} />
        <Skeleton h={300} />
      </Stack>
    );
  if (editing && !event.data) return <EventNotFound back={back} />;
  return <EventEditor key={event.data?.updatedAt ?? 'new'} event={event.data} back={back} />;
}

function EventEditor({ event, back }: { event?: EventDetail; back: React.ReactNode }) {
  const navigate = useNavigate();
  const timeZone = useChurchTimeZone();
  const formId = useId();
  const form = useForm<EventValues>({ mode: 'controlled', initialValues: eventValues(event), validate });
  const showProblem = () => showFirstError(document.getElementById(formId));
  const refresh = (u: SaveUtils) => [u.calendar.list.invalidate(), u.calendar.get.invalidate()];
  const done = (e: { id: number }) => {
    form.resetDirty();
    return navigate(`/events/${e.id}`);
  };
  const create = useSave(trpc.calendar.create, {
    success: (e) => ['Event created', `${e.title} is a draft: publish it when it is ready.`],
    errorTitle: 'Failed to create event',
    form,
    fieldErrorsOnly: true,
    invalidate: refresh,
    onError: showProblem,
    onSuccess: done,
  });
  const update = useSave(trpc.calendar.update, {
    success: 'Event saved',
    errorTitle: 'Failed to save event',
    form,
    fieldErrorsOnly: true,
    invalidate: refresh,
    onError: showProblem,
    onSuccess: done,
  });
  const submit = form.onSubmit((values) => {
    if (event) update.mutate({ id: event.id, ...values });
    else create.mutate({ ...values, status: 'draft' });
  }, showProblem);
  const leave = () => {
    const to = event ? `/events/${event.id}` : '/events';
    if (form.isDirty()) confirmDiscard({ what: 'this event', onDiscard: () => void navigate(to) });
    else void navigate(to);
  };
  const v = form.values;

  return (
    <Stack maw={720} gap="md">
      {back}
      <PageHeader
        title={event ? `Edit ${event.title}` : 'New event'}
        description="Its times and seats, tickets, discount codes and the questions people answer when they register."
      />
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Section title="About">
            <TextInput label="Title" required {...form.getInputProps('title')} />
            <DescriptionEditor
              value={v.descriptionHtml}
              onChange={(html) => form.setFieldValue('descriptionHtml', html)}
              error={form.errors.descriptionHtml}
            />
            <ImageUpload
              label="Image"
              description="Shown on the event's page"
              value={v.imageUrl ? { url: v.imageUrl } : null}
              onChange={(img) => form.setFieldValue('imageUrl', img ? absolute(img.url) : null)}
            />
          </Section>
          <TimesEditor form={form} timeZone={timeZone} />
          <Section title="Where">
            <TextInput label="Location" description="The hall, the campsite" {...form.getInputProps('locationName')} />
            <TextInput label="Address" {...form.getInputProps('address')} />
            <PlaceOnMap form={form} />
          </Section>
          <Section title="Who it is for">
            <TagsInput
              label="Audience tags"
              description="Families, youth, women: press Enter after each"
              {...form.getInputProps('audienceTags')}
            />
            <Radio.Group label="Who can see it" {...form.getInputProps('visibility')}>
              <Stack gap={6} mt="xs">
                {EVENT_VISIBILITIES.map((x) => (
                  <Radio key={x} value={x} label={VISIBILITY_LABELS[x]} />
                ))}
              </Stack>
            </Radio.Group>
          </Section>
          <Section title="Registration">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <ZonedDateTimePicker
                label="Registration opens"
                timeZone={timeZone}
                value={v.registrationOpensAt}
                onChange={(x) => form.setFieldValue('registrationOpensAt', x)}
                error={form.errors.registrationOpensAt}
              />
              <ZonedDateTimePicker
                label="Registration closes"
                timeZone={timeZone}
                value={v.registrationClosesAt}
                onChange={(x) => form.setFieldValue('registrationClosesAt', x)}
                error={form.errors.registrationClosesAt}
              />
            </SimpleGrid>
            <Switch
              label="Staff approve each registration (free events only)"
              {...form.getInputProps('requiresApproval', { type: 'checkbox' })}
            />
            <Switch
              label="Waitlist when full (the next person is offered a seat that comes free)"
              {...form.getInputProps('waitlist', { type: 'checkbox' })}
            />
            <Select
              label="Refund policy"
              description="When a person cancels. Cancelling the whole event always refunds in full."
              allowDeselect={false}
              data={[
                { value: 'full', label: 'Full refund' },
                { value: 'none', label: 'No refund' },
              ]}
              {...form.getInputProps('refundPolicy')}
            />
          </Section>
          <TicketTypesEditor form={form} />
          <DiscountCodesEditor form={form} timeZone={timeZone} />
          <QuestionsEditor form={form} />
          <Group justify="flex-end">
            <Button variant="default" onClick={leave}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {event ? 'Save event' : 'Create event'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
