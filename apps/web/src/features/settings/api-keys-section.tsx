import {
  Alert,
  Button,
  Code,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { createApiKeySchema, type ApiKeyScope } from '@lampstand/api/schemas/api-keys';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatDate } from '../../ui/format';
import { CopyField } from '../social-blast/social-settings';

/**
 * Settings → API keys: named keys for integrators' scripts (`Authorization: Bearer …`). A new key's
 * token is shown once; the list shows each key's start, what it may do (read only, or read and
 * write: issue 27 §9), when and by whom it was made, and when it was last used.
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
      <Title order={3} size="h4" mb={4}>
        API keys
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Let your own scripts and services use the Lampstand API as your church. Send a key as{' '}
        <Code>Authorization: Bearer …</Code>; see <Code>/api/openapi.json</Code> for the routes.
      </Text>
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
            A read-only key can make GET requests only; anything else answers 403.
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
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Access</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.map((k) => (
                  <Table.Tr key={k.id}>
                    <Table.Td>{k.name}</Table.Td>
                    <Table.Td>
                      <Code>{k.tokenPrefix}…</Code>
                    </Table.Td>
                    <Table.Td>{scopeLabel(k.scope)}</Table.Td>
                    <Table.Td>
                      {formatDate(k.createdAt)}
                      <Text size="xs" c="dimmed">
                        Created by {k.createdBy ?? 'an unknown account'}
                      </Text>
                    </Table.Td>
                    <Table.Td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'}</Table.Td>
                    <Table.Td>
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
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text size="sm" c="dimmed">
            No API keys yet.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
