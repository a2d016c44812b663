import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import {
  changePasswordFormSchema,
  updateAccountSchema,
  type ChangePasswordFormValues,
} from '@lampstand/api/schemas/account';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { PageHeader } from '../../ui/page-header';
import { useSession } from '../../shell/session';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { dailyUsage, useSendVerificationEmail } from '../campaigns/sending-limit';

/** The PATCH schema checks the details as they will be sent (the password only when the email changes). */
const validateAccount = schemaResolver(updateAccountSchema, { sync: true });

export function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your church's name, the email we write to, and your password." />
      <Stack maw={720} gap="lg">
        <EmailVerification />
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
    validate: (v) => validateAccount(toInput(v)),
  });
  useEffect(() => {
    if (user) form.setInitialValues({ churchName: user.churchName, email: user.email, currentPassword: '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user?.churchName, user?.email]);
  const save = useSave(trpc.account.update, {
    success: ['Account updated', 'Your church details are saved.'],
    onSuccess: (updated) => {
      utils.auth.me.setData(undefined, (old) => (old ? { ...old, ...updated } : updated));
      // A new email is not verified yet: the verification section and the daily limit change.
      void utils.account.status.invalidate();
      form.setValues({ churchName: updated.churchName, email: updated.email, currentPassword: '' });
      form.resetDirty();
    },
    // The server's field messages (e.g. 'Current password is incorrect') go on their inputs, not a toast.
    errorTitle: 'Failed to update account',
    form,
    fieldErrorsOnly: true,
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

/**
 * Whether the account email is verified, the daily limit of campaigns until it is, and the button
 * that sends the link. Without SMTP the email is kept in the outbox, and shown here.
 */
function EmailVerification() {
  const status = trpc.account.status.useQuery(undefined, { refetchOnWindowFocus: true });
  const send = useSendVerificationEmail();
  const s = status.data;
  if (!s) return null;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="email-verification-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="email-verification-title">
            Email verification
          </Title>
          <Badge
            color={s.emailVerified ? 'green' : 'yellow'}
            variant={s.emailVerified ? 'light' : 'filled'}
            c={s.emailVerified ? undefined : 'dark'}
          >
            {s.emailVerified ? 'Verified' : 'Not verified'}
          </Badge>
        </Group>
        {s.emailVerified ? (
          <Text size="sm">
            {s.email} was verified on {formatDate(s.emailVerifiedAt)}.{' '}
            {s.limit === null
              ? 'Your campaigns have no daily limit.'
              : `The platform administrator set a daily limit of ${formatNumber(s.limit)} people for your campaigns (${dailyUsage(s)})`}
          </Text>
        ) : (
          <>
            <Text size="sm">
              {s.source === 'admin'
                ? `Your email ${s.email} is not verified yet. The platform administrator set a daily limit of ${formatNumber(s.limit ?? 0)} people for your campaigns.`
                : `Until ${s.email} is verified, your email and SMS campaigns reach at most ${formatNumber(s.limit ?? 0)} people a day. New accounts start with this limit so that nobody can use Lampstand to send spam.`}{' '}
              {dailyUsage(s)}
            </Text>
            <Text size="sm">
              We email a link to {s.email}: open it and press Verify my email. The link works once, for 24 hours.
            </Text>
            <Group>
              <Button variant="light" loading={send.isPending} onClick={() => send.mutate()}>
                Send verification email
              </Button>
            </Group>
            {s.outbox && s.verificationEmail ? (
              <Paper withBorder p="sm" bg="gray.0">
                <Stack gap={4}>
                  <Text size="sm" fw={600}>
                    Outbox
                  </Text>
                  <Text size="sm" c="dimmed">
                    Email sending is not set up on this Lampstand server yet, so the email was kept here instead of
                    being sent.
                  </Text>
                  <Text size="sm">
                    To {s.verificationEmail.to} · {s.verificationEmail.subject} ·{' '}
                    {formatDate(s.verificationEmail.createdAt)} {formatTime(s.verificationEmail.createdAt)}
                  </Text>
                  <Anchor href={s.verificationEmail.link} size="sm">
                    Open the verification link
                  </Anchor>
                </Stack>
              </Paper>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function PasswordForm() {
  const form = useForm<ChangePasswordFormValues>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '', revokeApiKeys: true },
    validate: schemaResolver(changePasswordFormSchema, { sync: true }),
  });
  const utils = trpc.useUtils();
  const change = useSave(trpc.account.changePassword, {
    success: (res) => [
      'Password changed',
      'You are still signed in here; other devices have been signed out.' +
        (res.revokedApiKeys > 0
          ? ` ${res.revokedApiKeys} API ${res.revokedApiKeys === 1 ? 'key was' : 'keys were'} revoked.`
          : ''),
    ],
    onSuccess: async () => {
      form.reset();
      await utils.apiKeys.list.invalidate();
    },
    errorTitle: 'Failed to change password',
    form,
    fieldErrorsOnly: true,
  });
  return (
    <Paper withBorder p="lg">
      <form
        onSubmit={form.onSubmit((v) =>
          change.mutate({
            currentPassword: v.currentPassword,
            newPassword: v.newPassword,
            revokeApiKeys: v.revokeApiKeys ?? true,
          }),
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
          <Checkbox
            label="Also revoke all API keys"
            description="Scripts using your church's API keys stop working; create new keys in Settings."
            {...form.getInputProps('revokeApiKeys', { type: 'checkbox' })}
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
