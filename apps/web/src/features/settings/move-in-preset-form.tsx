import { Button, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { giftPresetFields, importPresetInputSchema, personPresetFields } from '@lampstand/api/schemas/imports';
import { useSave } from '../../lib/use-save';
import { trpc } from '../../lib/trpc';

const FIELD_LABELS: Record<string, string> = {
  externalId: 'Their id for the person or gift',
  personId: "The donor's id",
  firstName: 'First name',
  lastName: 'Last name',
  birthDate: 'Birth date',
  email: 'Email',
  phone: 'Phone',
  householdId: 'Household id',
  householdName: 'Household name',
  primary: 'Household primary contact (yes/no)',
  child: 'Child (yes/no)',
  emailOptIn: 'Email opt-in (yes/no)',
  smsOptIn: 'Text opt-in (yes/no)',
  date: 'Date',
  fund: 'Fund',
  amount: 'Amount',
  method: 'Payment method',
  checkNumber: 'Check number',
};

type Kind = 'people' | 'gifts';
interface PresetForm {
  name: string;
  kind: Kind;
  mapping: Record<string, string>;
}

/**
 * A column mapping for a CSV from any other system, saved as a preset: the file's column for each
 * field. The upload's Source list offers it afterwards.
 */
export function MoveInPresetForm({ onSaved }: { onSaved: (id: number) => void }) {
  const form = useForm<PresetForm>({
    mode: 'controlled',
    initialValues: { name: '', kind: 'people', mapping: {} },
    validate: schemaResolver(importPresetInputSchema, { sync: true }),
  });
  const save = useSave(trpc.imports.savePreset, {
    success: 'Column mapping saved',
    errorTitle: 'Failed to save the column mapping',
    form,
    invalidate: (u) => u.imports.presets.invalidate(),
    onSuccess: (preset) => {
      form.reset();
      onSaved(preset.id);
    },
  });
  const fields: readonly string[] = form.values.kind === 'people' ? personPresetFields : giftPresetFields;
  return (
    <Paper withBorder p="md">
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          save.mutate({
            ...v,
            mapping: Object.fromEntries(Object.entries(v.mapping).filter(([f, col]) => fields.includes(f) && col)),
          }),
        )}
      >
        <Stack>
          <Title order={3} size="h5">
            Save a column mapping
          </Title>
          <Text size="sm" c="dimmed">
            For a spreadsheet or another system: write the file&apos;s column name beside each field it has.
          </Text>
          <TextInput label="Mapping name" placeholder="Old spreadsheet" {...form.getInputProps('name')} />
          <SegmentedControl
            aria-label="The file holds"
            data={[
              { value: 'people', label: 'People' },
              { value: 'gifts', label: 'Gifts' },
            ]}
            {...form.getInputProps('kind')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {fields.map((f) => (
              <TextInput
                key={f}
                label={FIELD_LABELS[f] ?? f}
                value={form.values.mapping[f] ?? ''}
                onChange={(e) => form.setFieldValue(`mapping.${f}`, e.currentTarget.value)}
              />
            ))}
          </SimpleGrid>
          <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
            Save mapping
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
