import { Badge, Button, Group, Modal, Paper, Text, TextInput } from '@mantine/core';
import { IconGauge, IconSearch, IconTemplate, IconUserPlus, IconUserShare } from '@tabler/icons-react';
import { ChurchTemplatesDialog } from '../templates/assign-dialog';
import { DailyLimitDialog, dailyLimitLabel } from './daily-limit-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AdminUser } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { errorText } from '../../lib/errors';
import { PageHeader } from '../../ui/page-header';
import { DataTable } from '../../ui/data-table';

type SortKey = 'id' | 'churchName' | 'username' | 'email' | 'role';

const PAGE_SIZE = 10;

export function UsersPage() {
  const users = trpc.admin.users.useQuery();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'id', dir: 'asc' });
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<AdminUser | null>(null);
  const [templatesFor, setTemplatesFor] = useState<AdminUser | null>(null);
  const [limitFor, setLimitFor] = useState<AdminUser | null>(null);

  const impersonate = useSave(trpc.admin.impersonate, {
    success: (res) => ['Impersonation started', `You are now impersonating ${res.user.churchName}`],
    errorTitle: 'Error starting impersonation',
    onSuccess: () => {
      queryClient.clear();
      setTarget(null);
      void navigate('/');
    },
  });

  const filtered = useMemo(() => {
    const all = users.data ?? [];
    const term = search.trim().toLowerCase();
    const rows = term ? all.filter((u) => u.churchName.toLowerCase().includes(term)) : [...all];
    rows.sort((a, b) => {
      const av = a[sort.key];
      const bv = b[sort.key];
      const cmp =
        typeof av === 'number' && typeof bv === 'number'
          ? av - bv
          : String(av).localeCompare(String(bv), undefined, { sensitivity: 'base' });
      return sort.dir === 'asc' ? cmp : -cmp;
    });
    return rows;
  }, [users.data, search, sort]);
  const pageCount = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const current = Math.min(page, pageCount);
  const rows = filtered.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  return (
    <>
      <PageHeader
        title="User Management"
        description="Every church account on the platform. Impersonate a church to see Lampstand as they do."
        action={
          <Group gap="xs">
            <Button variant="default" disabled>
              Bulk Actions
            </Button>
            <Button leftSection={<IconUserPlus size={18} />} disabled>
              Add User
            </Button>
          </Group>
        }
      />
      <Paper withBorder p="md">
        <TextInput
          placeholder="Search by church name..."
          aria-label="Search by church name"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          maw={360}
          mb="md"
        />
        <DataTable
          label="Church accounts"
          rows={rows}
          rowKey={(u) => u.id}
          minWidth={720}
          stickyHeader
          table={{ striped: true }}
          empty={
            users.isLoading ? (
              'Loading...'
            ) : users.error ? (
              <Text span c="red" inherit>
                {errorText(users.error)}
              </Text>
            ) : (
              'No results found.'
            )
          }
          sort={{ ...sort, onChange: (next) => setSort(next as typeof sort) }}
          columns={[
            { header: 'ID', sortKey: 'id', card: 'hidden', cell: (u) => u.id },
            { header: 'Church Name', sortKey: 'churchName', card: 'title', td: { fw: 500 }, cell: (u) => u.churchName },
            { header: 'Username', sortKey: 'username', cell: (u) => u.username },
            {
              header: 'Email',
              sortKey: 'email',
              cell: (u) => u.email,
              note: dailyLimitLabel,
            },
            {
              header: 'Role',
              sortKey: 'role',
              cell: (u) => (
                <Badge color={u.role === 'admin' ? 'red' : 'indigo'} variant={u.role === 'admin' ? 'filled' : 'light'}>
                  {u.role}
                </Badge>
              ),
            },
          ]}
          actions={(u) => (
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconUserShare size={16} />}
                disabled={u.role === 'admin'}
                onClick={() => setTarget(u)}
                aria-label={`Impersonate ${u.churchName}`}
              >
                Impersonate
              </Button>
              {u.role !== 'admin' ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconTemplate size={16} />}
                  onClick={() => setTemplatesFor(u)}
                  aria-label={`Templates for ${u.churchName}`}
                >
                  Templates
                </Button>
              ) : null}
              {u.role !== 'admin' ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconGauge size={16} />}
                  onClick={() => setLimitFor(u)}
                  aria-label={`Daily limit for ${u.churchName}`}
                >
                  Daily limit
                </Button>
              ) : null}
            </Group>
          )}
        />
        <Group justify="space-between" mt="md" wrap="wrap">
          <Text size="sm" c="dimmed">
            {filtered.length} of {users.data?.length ?? 0} row(s)
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={current <= 1} onClick={() => setPage(current - 1)}>
              Previous
            </Button>
            <Text size="sm">
              Page {current} of {pageCount}
            </Text>
            <Button variant="default" size="xs" disabled={current >= pageCount} onClick={() => setPage(current + 1)}>
              Next
            </Button>
          </Group>
        </Group>
      </Paper>

      {limitFor ? <DailyLimitDialog user={limitFor} onClose={() => setLimitFor(null)} /> : null}
      {templatesFor ? (
        <ChurchTemplatesDialog
          userId={templatesFor.id}
          churchName={templatesFor.churchName}
          onClose={() => setTemplatesFor(null)}
        />
      ) : null}
      <Modal opened={!!target} onClose={() => setTarget(null)} title="Impersonate church" centered>
        <Text size="sm">
          You are about to impersonate {target?.churchName}. While impersonating, you will see the application as they
          do, and any actions you take will appear to come from their account.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setTarget(null)}>
            Cancel
          </Button>
          <Button
            color="yellow"
            c="dark"
            loading={impersonate.isPending}
            onClick={() => target && impersonate.mutate({ id: target.id })}
          >
            Start Impersonating
          </Button>
        </Group>
      </Modal>
    </>
  );
}
