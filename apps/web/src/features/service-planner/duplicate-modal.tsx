import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { duplicatePlanSchema, type PlanSummary } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { dayLabel } from './bits';
import { FormActions } from '../../ui/form-actions';

/** 'Use last Sunday as a starting point': the plan's fields, items and songs on a new date. */
export function DuplicatePlanModal({
  plan,
  onClose,
  onSaved,
}: {
  plan: PlanSummary;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const nextWeek = dayjs(plan.date).add(7, 'day');
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      id: plan.id,
      title: plan.title,
      date: (nextWeek.isBefore(dayjs()) ? dayjs().day(7) : nextWeek).format('YYYY-MM-DD'),
    },
    validate: schemaResolver(duplicatePlanSchema, { sync: true }),
  });
  const dup = useSave(trpc.servicePlanner.plans.duplicate, {
    success: 'Plan duplicated',
    errorTitle: 'Failed to duplicate plan',
    invalidate: (utils) => utils.servicePlanner.plans.invalidate(),
    form,
    onSuccess: (made) => {
      onClose();
      onSaved(made.id);
    },
  });
  return (
    <Modal opened onClose={onClose} title="Duplicate Plan">
      <form onSubmit={form.onSubmit((v) => dup.mutate(v))} noValidate>
        <Stack>
          <Text size="sm">
            A new draft from {plan.title} on {dayLabel(plan.date)}: its details, items and songs (with their keys). The
            team is not copied.
          </Text>
          <TextInput label="Title" {...form.getInputProps('title')} />
          <TextInput label="Date" type="date" withAsterisk {...form.getInputProps('date')} />
          <FormActions onCancel={onClose} submit={'Duplicate'} saving={dup.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
