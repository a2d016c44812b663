import { Alert, Button, CloseButton, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import {
  clientId,
  enqueue,
  isNetworkFailure,
  localFamilies,
  type Bundle,
  type OfflineAddFamily,
  type StationFamily,
} from './station-offline';

const child = () => ({ name: '', dateOfBirth: '', allergies: '' });
type Values = {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  children: ReturnType<typeof child>[];
};

const toInput = (v: Values) => ({
  firstName: v.firstName,
  lastName: v.lastName,
  phone: v.phone,
  email: v.email.trim() || null,
  children: v.children.map((c) => ({
    name: c.name,
    dateOfBirth: c.dateOfBirth || null,
    allergies: c.allergies.trim() || null,
  })),
});

/**
 * A first-time family, added on the spot: a parent's name and phone (email optional), the children
 * with birth dates and allergies. The parent is a new contact who gave no consent to campaigns.
 * Without the network the family is checked here with the server's own rules, kept on the station
 * with its own ids, and added when the network returns (a check-in of it waits behind it).
 */
export function NewFamily({
  bundle,
  onAdded,
  onQueued,
  onCancel,
}: {
  bundle: Bundle | undefined;
  onAdded: (f: StationFamily) => void;
  onQueued: () => void;
  onCancel: () => void;
}) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { firstName: '', lastName: '', phone: '', email: '', children: [child()] },
  });
  const [noBundle, setNoBundle] = useState(false);
  const add = useSave(trpc.checkin.addFamily, {
    errorTitle: 'Failed to add the family',
    form,
    networkMode: 'always',
    // Without the network the family is kept on the station instead (below): no toast.
    answer: (err) => isNetworkFailure(err),
    onSuccess: (o) => onAdded(o.family),
  });
  const addOffline = async (input: ReturnType<typeof toInput>) => {
    if (!bundle) return setNoBundle(true);
    // The server's schema (loaded now, kept offline by the station's service worker).
    const { newFamilyInputSchema } = await import('@lampstand/api/schemas/checkin/checkins');
    const checked = newFamilyInputSchema.safeParse(input);
    if (!checked.success) {
      for (const issue of checked.error.issues) form.setFieldError(issue.path.join('.'), issue.message);
      return;
    }
    const action: OfflineAddFamily = {
      kind: 'add_family',
      clientId: clientId(),
      at: new Date().toISOString(),
      ...checked.data,
      children: checked.data.children.map((c) => ({ ...c, clientId: clientId() })),
    };
    await enqueue(action);
    onQueued();
    onAdded(localFamilies(bundle, [action])[0]!);
  };
  const submit = async (v: Values) => {
    setNoBundle(false);
    const input = toInput(v);
    try {
      await add.mutateAsync(input);
    } catch (err) {
      if (isNetworkFailure(err)) await addOffline(input);
    }
  };
  const v = form.getValues();
  return (
    <Paper withBorder p="lg">
      <form noValidate aria-label="New family" onSubmit={form.onSubmit((v) => void submit(v))}>
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
          {noBundle ? (
            <Alert color="red" title="No network">
              This station has no offline copy of today’s rooms yet: add the family when the network returns.
            </Alert>
          ) : null}
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
