import { Button, Paper, Skeleton, TextInput } from '@mantine/core';
import { IconMessage, IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { SendingLimitNotice } from '../campaigns/sending-limit';
import { CampaignForm, type SmsCampaign } from './campaign-form';
import { SmsCampaignsTable } from './campaigns-table';
import { SmsOutbox } from './sms-outbox';

export function SmsCampaignsPage() {
  const [params, setParams] = useSearchParams();
  const listIdParam = params.get('listId') ?? undefined;
  const location = useLocation();
  // A list's SMS button (?listId=) and the dashboard's quick action (/sms-campaigns/new) open the form.
  const [editing, setEditing] = useState<SmsCampaign | 'new' | null>(
    listIdParam || location.pathname.endsWith('/new') ? 'new' : null,
  );
  const [search, setSearch] = useState('');
  const campaigns = trpc.smsCampaigns.list.useQuery(undefined, {
    refetchInterval: (q) =>
      q.state.data?.some((c) => c.status === 'sending' || c.status === 'scheduled') ? 2000 : false,
  });
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const closeForm = () => {
    setEditing(null);
    if (params.get('listId')) {
      params.delete('listId');
      setParams(params, { replace: true });
    }
  };
  // A template's 'Use' lands here with ?edit={id}: open that draft (once the campaigns have loaded),
  // then drop the parameter so a reload does not open it again.
  const editParam = params.get('edit');
  const [openedEdit, setOpenedEdit] = useState<string | null>(null);
  if (editParam && campaigns.data && openedEdit !== editParam) {
    setOpenedEdit(editParam);
    const c = campaigns.data.find((x) => String(x.id) === editParam);
    if (c) setEditing(c);
  }
  useEffect(() => {
    if (!editParam || openedEdit !== editParam) return;
    const next = new URLSearchParams(params);
    next.delete('edit');
    setParams(next, { replace: true });
  }, [editParam, openedEdit, params, setParams]);
  const listName = (id: string) => lists.data?.find((l) => String(l.id) === id)?.name ?? `List ${id}`;
  const rows = (campaigns.data ?? []).filter((c) => c.name.toLowerCase().includes(search.trim().toLowerCase()));

  return (
    <>
      <PageHeader
        title="SMS Campaigns"
        description="Text messages to your contact lists."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
            New Campaign
          </Button>
        }
      />
      <SendingLimitNotice channel="sms" />
      {editing ? (
        <CampaignForm
          key={editing === 'new' ? 'new' : editing.id}
          campaign={editing === 'new' ? undefined : editing}
          initialListId={listIdParam}
          onDone={closeForm}
        />
      ) : null}
      <Paper withBorder p="md">
        <TextInput
          placeholder="Search campaigns..."
          aria-label="Search campaigns"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={360}
          mb="md"
        />
        {campaigns.isLoading ? (
          <Skeleton h={160} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<IconMessage size={24} />}
            title={search ? 'No matching campaigns' : 'No SMS campaigns yet'}
            description="Write a text, choose a list, and send it now or later."
          />
        ) : (
          <SmsCampaignsTable rows={rows} listName={listName} onEdit={setEditing} />
        )}
      </Paper>
      <SmsOutbox />
    </>
  );
}
