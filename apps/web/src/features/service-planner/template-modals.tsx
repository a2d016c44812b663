import { Button, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconTemplate } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import {
  createTemplateSchema,
  plansFromTemplateSchema,
  type PlanSummary,
} from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { FormActions } from '../../ui/form-actions';
import { PLANNER_STALE_MS } from './planner-cache';

/** 'Save as template': the plan's times, items and songs, and the positions its team fills. */
export function SaveTemplateModal({ plan, onClose }: { plan: PlanSummary; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { planId: plan.id, name: plan.title },
    validate: schemaResolver(createTemplateSchema, { sync: true }),
  });
  const save = useSave(trpc.servicePlanner.templates.create, {
    success: 'Template saved',
    errorTitle: 'Failed to save template',
    form,
    invalidate: (utils) => utils.servicePlanner.templates.invalidate(),
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title="Save as Template">
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack>
          <Text size="sm">
            Keeps this plan's times, items with their lengths and songs, and the positions its team fills, to start new
            plans from.
          </Text>
          <TextInput label="Template name" withAsterisk {...form.getInputProps('name')} />
          <FormActions onCancel={onClose} submit="Save Template" saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/** 'New plan from template': one date, or every week for N weeks. */
export function FromTemplateButton() {
  const [open, setOpen] = useState(false);
  const templates = trpc.servicePlanner.templates.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  if (!templates.data?.length) return null;
  return (
    <>
      <Button variant="default" leftSection={<IconTemplate size={18} />} onClick={() => setOpen(true)}>
        From Template
      </Button>
      {open ? <FromTemplateModal templates={templates.data} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function FromTemplateModal({ templates, onClose }: { templates: { id: number; name: string }[]; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { id: templates[0]!.id, date: dayjs().day(7).format('YYYY-MM-DD'), weeks: 1 },
    validate: schemaResolver(plansFromTemplateSchema, { sync: true }),
  });
  const create = useSave(trpc.servicePlanner.templates.createPlans, {
    success: (r) => (r.plans.length === 1 ? 'Plan created' : `${r.plans.length} plans created`),
    errorTitle: 'Failed to create plans',
    form,
    invalidate: (utils) => utils.servicePlanner.plans.invalidate(),
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title="New Plan from Template">
      <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
        <Stack>
          <Select
            label="Template"
            allowDeselect={false}
            data={templates.map((t) => ({ value: String(t.id), label: t.name }))}
            value={String(form.values.id)}
            onChange={(v) => form.setFieldValue('id', Number(v))}
          />
          <TextInput label="Date" type="date" withAsterisk {...form.getInputProps('date')} />
          <NumberInput
            label="Every week for"
            description="Weeks, from the date above (1 makes one plan)."
            min={1}
            max={52}
            allowDecimal={false}
            {...form.getInputProps('weeks')}
          />
          <FormActions onCancel={onClose} submit="Create Plans" saving={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
