import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { QUESTION_KINDS, QUESTION_SCOPES } from '@lampstand/api/schemas/calendar-events';
import { ZonedDateTimePicker } from '../../ui/zoned-date-time-picker';
import {
  centsProps,
  countProps,
  newDiscountCode,
  newQuestion,
  newTicketType,
  newTime,
  type EventForm,
} from './event-form-values';
import { QUESTION_KIND_LABELS } from './event-words';

/** One part of the editor: a titled card. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

/** An item of a list (a time, a ticket): its fields, and Remove. */
function Item({ label, onRemove, children }: { label: string; onRemove?: () => void; children: ReactNode }) {
  return (
    <Card withBorder padding="sm" bg="var(--mantine-color-gray-0)">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Text fw={600} size="sm">
          {label}
        </Text>
        {onRemove ? (
          <ActionIcon variant="subtle" color="red" aria-label={`Remove ${label}`} onClick={onRemove}>
            <IconTrash size={18} />
          </ActionIcon>
        ) : null}
      </Group>
      {children}
    </Card>
  );
}

function AddButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="light" leftSection={<IconPlus size={18} />} onClick={onClick} style={{ alignSelf: 'flex-start' }}>
      {children}
    </Button>
  );
}

export function TimesEditor({ form, timeZone }: { form: EventForm; timeZone: string }) {
  const times = form.values.times;
  return (
    <Section title="When" description="One time, or several for a series: each has its own seats.">
      {times.map((t, i) => (
        <Item
          key={t.id ?? `new-${i}`}
          label={times.length > 1 ? `Time ${i + 1}` : 'Time'}
          onRemove={times.length > 1 ? () => form.removeListItem('times', i) : undefined}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <ZonedDateTimePicker
              label="Starts"
              withAsterisk
              timeZone={timeZone}
              value={t.startsAt || null}
              onChange={(v) => form.setFieldValue(`times.${i}.startsAt`, v ?? '')}
              error={form.errors[`times.${i}.startsAt`]}
            />
            <ZonedDateTimePicker
              label="Ends"
              timeZone={timeZone}
              value={t.endsAt}
              onChange={(v) => form.setFieldValue(`times.${i}.endsAt`, v)}
              error={form.errors[`times.${i}.endsAt`]}
            />
            <NumberInput
              label="Seats"
              description="Leave empty for no limit"
              {...countProps(form, `times.${i}.capacity`)}
            />
          </SimpleGrid>
        </Item>
      ))}
      <AddButton onClick={() => form.insertListItem('times', newTime())}>Add a time</AddButton>
    </Section>
  );
}

export function TicketTypesEditor({ form }: { form: EventForm }) {
  const types = form.values.ticketTypes;
  return (
    <Section title="Tickets" description="Free or paid. One ticket is one person and one seat.">
      {types.map((t, i) => (
        <Item
          key={t.id ?? `new-${i}`}
          label={t.name || `Ticket ${i + 1}`}
          onRemove={types.length > 1 ? () => form.removeListItem('ticketTypes', i) : undefined}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Ticket name" required {...form.getInputProps(`ticketTypes.${i}.name`)} />
            <NumberInput label="Price" description="$0 is free" {...centsProps(form, `ticketTypes.${i}.priceCents`)} />
            <NumberInput
              label="Ticket capacity"
              description="Per time; empty: only the time's seats"
              {...countProps(form, `ticketTypes.${i}.capacity`)}
            />
            <NumberInput
              label="Most per registration"
              description="Family max 6: 6"
              {...countProps(form, `ticketTypes.${i}.maxPerRegistration`)}
            />
          </SimpleGrid>
        </Item>
      ))}
      <AddButton onClick={() => form.insertListItem('ticketTypes', newTicketType())}>Add a ticket type</AddButton>
    </Section>
  );
}

export function DiscountCodesEditor({ form, timeZone }: { form: EventForm; timeZone: string }) {
  const codes = form.values.discountCodes;
  return (
    <Section title="Discount codes" description="An amount or a percent off, for a number of uses, until a date.">
      {codes.map((c, i) => {
        const percent = c.amountOffCents === null;
        return (
          <Item
            key={c.id ?? `new-${i}`}
            label={c.code || `Code ${i + 1}`}
            onRemove={() => form.removeListItem('discountCodes', i)}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Code" required {...form.getInputProps(`discountCodes.${i}.code`)} />
              <Stack gap={4}>
                <Text size="sm" fw={500} id={`code-kind-${i}`}>
                  Discount
                </Text>
                <SegmentedControl
                  aria-labelledby={`code-kind-${i}`}
                  data={[
                    { value: 'percent', label: 'Percent' },
                    { value: 'amount', label: 'Amount' },
                  ]}
                  value={percent ? 'percent' : 'amount'}
                  onChange={(v) =>
                    form.setFieldValue(`discountCodes.${i}`, {
                      ...c,
                      percentOff: v === 'percent' ? 10 : null,
                      amountOffCents: v === 'amount' ? 500 : null,
                    })
                  }
                />
              </Stack>
              {percent ? (
                <NumberInput
                  label="Percent off"
                  suffix="%"
                  max={100}
                  {...countProps(form, `discountCodes.${i}.percentOff`)}
                />
              ) : (
                <NumberInput label="Amount off" {...centsProps(form, `discountCodes.${i}.amountOffCents`)} />
              )}
              <NumberInput
                label="Uses"
                description="Empty: no limit"
                {...countProps(form, `discountCodes.${i}.maxUses`)}
              />
              <ZonedDateTimePicker
                label="Expires"
                timeZone={timeZone}
                value={c.expiresAt}
                onChange={(v) => form.setFieldValue(`discountCodes.${i}.expiresAt`, v)}
                error={form.errors[`discountCodes.${i}.expiresAt`]}
              />
            </SimpleGrid>
          </Item>
        );
      })}
      <AddButton onClick={() => form.insertListItem('discountCodes', newDiscountCode())}>Add a discount code</AddButton>
    </Section>
  );
}

const SCOPE_LABELS = { registration: 'Once per registration', attendee: 'Of each attendee' } as const;

export function QuestionsEditor({ form }: { form: EventForm }) {
  const questions = form.values.questions;
  return (
    <Section title="Questions" description="Asked when people register; the answers are in the registrant list.">
      {questions.map((q, i) => (
        <Item key={q.id ?? `new-${i}`} label={`Question ${i + 1}`} onRemove={() => form.removeListItem('questions', i)}>
          <Stack gap="sm">
            <TextInput label="Question" required {...form.getInputProps(`questions.${i}.label`)} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Kind of answer"
                allowDeselect={false}
                data={QUESTION_KINDS.map((k) => ({ value: k, label: QUESTION_KIND_LABELS[k] }))}
                {...form.getInputProps(`questions.${i}.kind`)}
              />
              <Select
                label="Asked"
                allowDeselect={false}
                data={QUESTION_SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s] }))}
                {...form.getInputProps(`questions.${i}.scope`)}
              />
            </SimpleGrid>
            {q.kind === 'choice' || q.kind === 'multiple_choice' ? (
              <TagsInput
                label="Choices"
                description="Press Enter after each"
                {...form.getInputProps(`questions.${i}.choices`)}
              />
            ) : null}
            <Switch label="Required" {...form.getInputProps(`questions.${i}.required`, { type: 'checkbox' })} />
          </Stack>
        </Item>
      ))}
      <AddButton onClick={() => form.insertListItem('questions', newQuestion())}>Add a question</AddButton>
    </Section>
  );
}
