import { Alert, Box, Button, Code, Group, Paper, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { createApiKeySchema, type ApiKeyScope } from '@lampstand/api/schemas/api-keys';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { ForDeveloper } from '../../ui/for-developer';
import { formatDate } from '../../ui/format';
import { CopyField } from '../social-blast/social-settings';

/**
 * Settings → API keys: named keys for integrators' scripts (`Authorization: Bearer …`). A new key's
 * token is shown once; the list shows each key's start, what it may do (read only, or read and
 * write), when and by whom it was made, and when it was last used.
 */
const SCOPES: { value: ApiKeyScope; label: string }[] = [
  { value: 'write', label: 'Read and write' },
  { value: 'read', label: 'Read only' },
];
const scopeLabel = (scope: ApiKeyScope) => SCOPES.find((s) => s.value === scope)!.label;

export function ApiKeysSection() {
  const utils = trpc.useUtils();
  const keys = trpc.apiKeys.list.useQuery();
  const [token, setToken] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', scope: 'write' as ApiKeyScope },
    validate: schemaResolver(createApiKeySchema, { sync: true }),
  });
  const create = useSave(trpc.apiKeys.create, {
    success: ['API key created', 'Copy it now: it will not be shown again.'],
    errorTitle: 'Failed to create API key',
    onSuccess: async (data) => {
      setToken(data.token);
      form.setValues({ name: '', scope: 'write' });
      await utils.apiKeys.list.invalidate();
    },
  });
  const revoke = useSave(trpc.apiKeys.revoke, {
    success: ['API key revoked', 'Scripts using it can no longer sign in.'],
    errorTitle: 'Failed to revoke API key',
    invalidate: (utils) => utils.apiKeys.list.invalidate(),
  });

  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="api-keys">
      <Title order={2} size="h4" mb={4}>
        API keys
      </Title>
      <Text size="sm" c="dimmed">
        Let your own website, scripts or other services read and change your church&apos;s Lampstand data. Give each one
        its own key, so you can stop one without stopping the others.
      </Text>
      <Box mb="md">
        <ForDeveloper>
          Send a key as <Code>Authorization: Bearer …</Code>; the routes are described at <Code>/api/openapi.json</Code>
          . A read-only key may make GET requests only: anything else answers 403.
        </ForDeveloper>
      </Box>
      <Stack>
        <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Key name"
              placeholder="Website sync"
              style={{ flex: 1, minWidth: 200 }}
              {...form.getInputProps('name')}
            />
            <Select label="Access" data={SCOPES} allowDeselect={false} w={200} {...form.getInputProps('scope')} />
            <Button type="submit" mt={25} loading={create.isPending}>
              Create key
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            A read-only key can look at your data but not change it.
          </Text>
        </form>
        {token ? (
          <Alert color="orange" icon={<IconKey size={18} />} title="Copy your API key now">
            <Stack gap="xs">
              <Text size="sm">It will not be shown again. Keep it secret: it acts as your church.</Text>
              <CopyField label="API key" value={token} />
            </Stack>
          </Alert>
        ) : null}
        {keys.isLoading ? (
          <Skeleton h={80} />
        ) : keys.data && keys.data.length > 0 ? (
          <DataTable
            label="API keys"
            rows={keys.data}
            rowKey={(k) => k.id}
            minWidth={480}
            actionsHeader="hidden"
            table={{ highlightOnHover: false, verticalSpacing: undefined }}
            columns={[
              { header: 'Name', card: 'title', cell: (k) => k.name },
              { header: 'Key', cell: (k) => <Code>{k.tokenPrefix}…</Code> },
              { header: 'Access', cell: (k) => scopeLabel(k.scope) },
              {
                header: 'Created',
                cell: (k) => formatDate(k.createdAt),
                note: (k) => `Created by ${k.createdBy ?? 'an unknown account'}`,
              },
              { header: 'Last used', cell: (k) => (k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never') },
            ]}
            actions={(k) => (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                aria-label={`Revoke ${k.name}`}
                onClick={() =>
                  confirmDestructive({
                    title: `Revoke ${k.name}?`,
                    text: 'Scripts using this key stop working at once.',
                    confirm: 'Revoke key',
                    onConfirm: () => revoke.mutate({ id: k.id }),
                  })
                }
              >
                Revoke
              </Button>
            )}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No API keys yet.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
