import { Button, CloseButton, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';

type Family = { id: number; name: string; phoneLast4: string | null; children: { id: number; name: string }[] };
const child = () => ({ name: '', dateOfBirth: '', allergies: '' });

/**
 * A first-time family, added on the spot: a parent's name and phone (email optional), the children
 * with birth dates and allergies. The parent is a new contact who gave no consent to campaigns.
 */
export function NewFamily({ onAdded, onCancel }: { onAdded: (f: Family) => void; onCancel: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: '', lastName: '', phone: '', email: '', children: [child()] },
  });
  const add = useSave(trpc.checkin.addFamily, {
    errorTitle: 'Failed to add the family',
    form,
    onSuccess: (o) => onAdded(o.family),
  });
  const v = form.getValues();
  return (
    <Paper withBorder p="lg">
      <form
        noValidate
        aria-label="New family"
        onSubmit={form.onSubmit((v) =>
          add.mutate({
            firstName: v.firstName,
            lastName: v.lastName,
            phone: v.phone,
            email: v.email.trim() || null,
            children: v.children.map((c) => ({
              name: c.name,
              dateOfBirth: c.dateOfBirth || null,
              allergies: c.allergies.trim() || null,
            })),
          }),
        )}
      >
        <Stack>
          <Text fw={700} size="lg">
            Parent
          </Text>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              size="lg"
              miw={150}
              label="First name"
              autoComplete="given-name"
              {...form.getInputProps('firstName')}
            />
            <TextInput
              size="lg"
              miw={150}
              label="Last name"
              autoComplete="family-name"
              {...form.getInputProps('lastName')}
            />
          </Group>
          <TextInput size="lg" label="Mobile phone" type="tel" autoComplete="tel" {...form.getInputProps('phone')} />
          <TextInput
            size="lg"
            label="Email (optional)"
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
          />
          {v.children.map((_, i) => (
            <Paper key={i} withBorder p="sm">
              <Group justify="space-between">
                <Text fw={700}>Child {i + 1}</Text>
                {v.children.length > 1 ? (
                  <CloseButton
                    aria-label={`Remove child ${i + 1}`}
                    onClick={() => form.removeListItem('children', i)}
                  />
                ) : null}
              </Group>
              <Stack gap="xs">
                <TextInput size="lg" label={`Child ${i + 1} name`} {...form.getInputProps(`children.${i}.name`)} />
                <TextInput
                  size="lg"
                  type="date"
                  label={`Child ${i + 1} birth date`}
                  {...form.getInputProps(`children.${i}.dateOfBirth`)}
                />
                <TextInput
                  size="lg"
                  label={`Child ${i + 1} allergies`}
                  placeholder="None"
                  {...form.getInputProps(`children.${i}.allergies`)}
                />
              </Stack>
            </Paper>
          ))}
          <Button variant="light" size="lg" onClick={() => form.insertListItem('children', child())}>
            Add another child
          </Button>
          <Button type="submit" size="xl" loading={add.isPending}>
            Add family
          </Button>
          <Button variant="subtle" size="lg" onClick={onCancel}>
            Cancel
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
