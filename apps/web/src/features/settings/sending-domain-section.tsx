import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import type { RouterOutputs } from '@lampstand/api';
import { addSendingDomainInput, type AddSendingDomainInput } from '@lampstand/api/schemas/sending-domains';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatDate } from '../../ui/format';
import { statusColor, type StatusKind } from '../../ui/status-color';
import { useChurchTimeZone } from '../../lib/time-zone';
import { CopyField } from '../social-blast/social-settings';

type Domain = RouterOutputs['sendingDomains']['list'][number];
type DnsRecord = Domain['records'][number];

const STATUS: Record<DnsRecord['status'], { label: string; kind: StatusKind }> = {
  unchecked: { label: 'Not checked', kind: 'neutral' },
  ok: { label: 'Found', kind: 'success' },
  missing: { label: 'Missing', kind: 'failure' },
  wrong: { label: 'Wrong', kind: 'failure' },
};

/** While a domain is added or checked (its DNS looked up, which can take several seconds). */
const CHECKING = 'Checking your domain… this can take a few seconds.';

function RecordRow({ domain, record }: { domain: string; record: DnsRecord }) {
  const status = STATUS[record.status];
  // DMARC is a suggestion: missing, it is shown in grey, not red.
  const suggestion = !record.required && record.status !== 'ok';
  const color = statusColor(suggestion ? 'neutral' : status.kind);
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} size="sm">
            {record.label} ({record.type}){record.required ? '' : ' — suggested'}
          </Text>
          <Badge color={color} variant="light">
            {status.label}
          </Badge>
        </Group>
        <CopyField label={`${record.label} record name`} value={record.name} />
        <CopyField label={`${record.label} record value`} value={record.value} />
        {record.problem ? (
          <Text size="sm" c={suggestion ? 'dimmed' : 'red'} aria-label={`${record.label} on ${domain}`}>
            {record.problem}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * Settings → Email: the church's own sending domain. Adding one makes its DKIM key
 * and shows the DNS records to add, each with copy buttons; Verify looks them up and says which is
 * missing or wrong. Once verified the church's mail goes From the domain, DKIM-signed.
 */
export function SendingDomainSection() {
  const timeZone = useChurchTimeZone();
  const domains = trpc.sendingDomains.list.useQuery();
  const form = useForm<AddSendingDomainInput>({
    mode: 'controlled',
    initialValues: { domain: '' },
    validate: schemaResolver(addSendingDomainInput, { sync: true }),
  });
  const add = useSave(trpc.sendingDomains.add, {
    success: ['Domain added', 'Add the DNS records below at your DNS host, then press Verify.'],
    errorTitle: 'Failed to add the domain',
    form,
    invalidate: (u) => u.sendingDomains.list.invalidate(),
    onSuccess: () => form.reset(),
  });
  const verify = useSave(trpc.sendingDomains.verify, {
    success: (d) =>
      d.status === 'verified'
        ? ['Domain verified', `Your email is now sent from ${d.fromAddress}.`]
        : // Only missing: DNS may still be on its way (waiting); a record shown wrong has to be changed (failure).
          {
            kind: d.records.some((r) => r.required && r.status === 'wrong') ? 'failure' : 'waiting',
            title: 'Not verified yet',
            message: 'Some records are missing or wrong: see below.',
          },
    errorTitle: 'Failed to verify the domain',
    invalidate: (u) => u.sendingDomains.list.invalidate(),
  });
  const remove = useSave(trpc.sendingDomains.delete, {
    success: 'Domain removed',
    errorTitle: 'Failed to remove the domain',
    invalidate: (u) => u.sendingDomains.list.invalidate(),
  });
  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="email">
      <Title order={2} size="h4" mb={4}>
        Email
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Send your church&apos;s email from your own domain. Until a domain is verified, email is sent from
        Lampstand&apos;s address with replies going to your church.
      </Text>
      <Stack>
        <form onSubmit={form.onSubmit((v) => add.mutate(v))} noValidate>
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Domain"
              placeholder="gracechurch.org"
              style={{ flex: 1, minWidth: 200 }}
              {...form.getInputProps('domain')}
            />
            <Button type="submit" mt={25} loading={add.isPending}>
              Add domain
            </Button>
          </Group>
          {add.isPending ? (
            <Text size="sm" mt="xs" role="status">
              {CHECKING}
            </Text>
          ) : null}
        </form>
        {domains.error ? (
          <Alert color="red" title="Failed to load your sending domains">
            {domains.error.message}
          </Alert>
        ) : null}
        {(domains.data ?? []).map((d) => (
          <Paper key={d.id} withBorder p="md" radius="md" aria-label={`Sending domain ${d.domain}`} component="section">
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs">
                  <Title order={3} size="h5">
                    {d.domain}
                  </Title>
                  <Badge color={statusColor(d.status === 'verified' ? 'success' : 'waiting')} variant="light">
                    {d.status === 'verified' ? 'Verified' : 'Not verified'}
                  </Badge>
                </Group>
                <Group gap="xs">
                  <Button
                    variant="light"
                    onClick={() => verify.mutate({ id: d.id })}
                    loading={verify.isPending && verify.variables?.id === d.id}
                  >
                    Verify
                  </Button>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Remove ${d.domain}`}
                    onClick={() =>
                      confirmDestructive({
                        title: 'Remove this domain?',
                        text: `Remove ${d.domain}? Your email will be sent from Lampstand's address again.`,
                        confirm: 'Remove',
                        onConfirm: () => remove.mutate({ id: d.id }),
                      })
                    }
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              {verify.isPending && verify.variables?.id === d.id ? (
                <Text size="sm" role="status">
                  {CHECKING}
                </Text>
              ) : null}
              <Text size="sm">
                {d.status === 'verified'
                  ? `Your email is sent from ${d.fromAddress}, signed with your domain's DKIM key.`
                  : 'Add these records at your DNS host, then press Verify. Changes can take an hour to show.'}
                {d.checkedAt ? ` Last checked ${formatDate(d.checkedAt, timeZone)}.` : ''}
              </Text>
              {d.records.map((r) => (
                <RecordRow key={r.key} domain={d.domain} record={r} />
              ))}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
