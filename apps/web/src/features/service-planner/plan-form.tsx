import { Modal, Select, SimpleGrid, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { z } from 'zod';
import {
  createPlanSchema,
  PLAN_STATUS_LABELS,
  PLAN_STATUSES,
  type PlanSummary,
} from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { FormActions } from '../../ui/form-actions';

type PlanInput = z.input<typeof createPlanSchema>;

/** Create or edit a plan's fields (its items and team are on the plan page). */
export function PlanFormModal({
  plan,
  opened,
  onClose,
  onSaved,
}: {
  plan?: PlanSummary;
  opened: boolean;
  onClose: () => void;
  onSaved?: (id: number) => void;
}) {
  const form = useForm<PlanInput>({
    mode: 'controlled',
    initialValues: {
      title: plan?.title ?? '',
      date: plan?.date ?? '',
      startTime: plan?.startTime ?? '',
      endTime: plan?.endTime ?? '',
      location: plan?.location ?? '',
      theme: plan?.theme ?? '',
      description: plan?.description ?? '',
      notes: plan?.notes ?? '',
      status: plan?.status ?? 'draft',
      serviceTimes: plan?.serviceTimes ?? [],
    },
    validate: schemaResolver(createPlanSchema, { sync: true }),
  });
  const saved = {
    invalidate: (utils: SaveUtils) => utils.servicePlanner.plans.invalidate(),
    form,
    onSuccess: (p: { id: number }) => {
      form.resetDirty();
      onClose();
      onSaved?.(p.id);
    },
  };
  const create = useSave(trpc.servicePlanner.plans.create, {
    ...saved,
    success: 'Plan created',
    errorTitle: 'Failed to create plan',
  });
  const update = useSave(trpc.servicePlanner.plans.update, {
    ...saved,
    success: 'Plan updated',
    errorTitle: 'Failed to update plan',
  });
  const save = (values: PlanInput) => (plan ? update.mutate({ id: plan.id, ...values }) : create.mutate(values));
  return (
    <Modal opened={opened} onClose={onClose} title={plan ? 'Edit Plan' : 'New Service Plan'} size="lg">
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack>
          <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="Date" type="date" withAsterisk {...form.getInputProps('date')} />
            <TextInput label="Start time" type="time" {...form.getInputProps('startTime')} />
            <TextInput label="End time" type="time" {...form.getInputProps('endTime')} />
          </SimpleGrid>
          <TagsInput
            label="Service times"
            description="When the service is held more than once (e.g. 09:00 and 11:00): the song report counts each."
            placeholder="HH:MM, then Enter"
            splitChars={[',', ' ']}
            maxTags={6}
            {...form.getInputProps('serviceTimes')}
            error={
              form.errors.serviceTimes ?? Object.entries(form.errors).find(([k]) => k.startsWith('serviceTimes.'))?.[1]
            }
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Location" {...form.getInputProps('location')} />
            <TextInput label="Theme" {...form.getInputProps('theme')} />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <Select
            label="Status"
            data={PLAN_STATUSES.map((s) => ({ value: s, label: PLAN_STATUS_LABELS[s] }))}
            allowDeselect={false}
            {...form.getInputProps('status')}
          />
          <FormActions
            onCancel={onClose}
            submit={plan ? 'Save Plan' : 'Create Plan'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
