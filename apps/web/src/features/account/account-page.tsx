import { Button, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useEffect } from 'react';
import {
  changePasswordFormSchema,
  updateAccountSchema,
  type ChangePasswordFormValues,
} from '@lampstand/api/schemas/account';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { zodValidate } from '../../ui/zod-form';
import { useSession } from '../../shell/session';

/** Put the server's field messages (e.g. 'Current password is incorrect') on their inputs; true when any was. */
function showFieldErrors<T>(form: UseFormReturnType<T>, err: unknown): boolean {
  const issues = (err as { data?: { issues?: { path: string; message: string }[] } | null }).data?.issues ?? [];
  for (const i of issues) form.setFieldError(i.path, i.message);
  return issues.length > 0;
}

export function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your church's name, the email we write to, and your password." />
      <Stack maw={720} gap="lg">
        <ChurchDetailsForm />
        <PasswordForm />
      </Stack>
    </>
  );
}

function ChurchDetailsForm() {
  const { user } = useSession();
  const utils = trpc.useUtils();
  const changesEmail = (email: string) => !!user && email.trim().toLowerCase() !== user.email.toLowerCase();
  // The current password is checked only when the email changes.
  const toInput = (v: { churchName: string; email: string; currentPassword: string }) => ({
    churchName: v.churchName,
    email: v.email,
    currentPassword: changesEmail(v.email) ? v.currentPassword : undefined,
  });
  const form = useForm({
    mode: 'controlled',
    initialValues: { churchName: user?.churchName ?? '', email: user?.email ?? '', currentPassword: '' },
    validate: (v) => zodValidate(updateAccountSchema)(toInput(v)),
  });
  useEffect(() => {
    if (user) form.setInitialValues({ churchName: user.churchName, email: user.email, currentPassword: '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user?.churchName, user?.email]);
  const save = trpc.account.update.useMutation({
    onSuccess: (updated) => {
      utils.auth.me.setData(undefined, (old) => (old ? { ...old, ...updated } : updated));
      form.setValues({ churchName: updated.churchName, email: updated.email, currentPassword: '' });
      form.resetDirty();
      notifySuccess('Account updated', 'Your church details are saved.');
    },
    onError: (err) => {
      if (!showFieldErrors(form, err)) notifyError('Failed to update account', errorMessage(err));
    },
  });
  return (
    <Paper withBorder p="lg">
      <form onSubmit={form.onSubmit((v) => save.mutate(toInput(v)))}>
        <Stack>
          <Title order={3} size="h4">
            Church details
          </Title>
          <TextInput label="Church name" autoComplete="organization" {...form.getInputProps('churchName')} />
          <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email')} />
          {changesEmail(form.values.email) ? (
            <PasswordInput
              label="Current password"
              description="Needed to change your email."
              autoComplete="current-password"
              {...form.getInputProps('currentPassword')}
            />
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save details
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function PasswordForm() {
  const form = useForm<ChangePasswordFormValues>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: zodValidate(changePasswordFormSchema),
  });
  const change = trpc.account.changePassword.useMutation({
    onSuccess: () => {
      form.reset();
      notifySuccess('Password changed', 'You are still signed in here; other devices have been signed out.');
    },
    onError: (err) => {
      if (!showFieldErrors(form, err)) notifyError('Failed to change password', errorMessage(err));
    },
  });
  return (
    <Paper withBorder p="lg">
      <form
        onSubmit={form.onSubmit((v) =>
          change.mutate({ currentPassword: v.currentPassword, newPassword: v.newPassword }),
        )}
      >
        <Stack>
          <Title order={3} size="h4">
            Change password
          </Title>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput label="New password" autoComplete="new-password" {...form.getInputProps('newPassword')} />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
