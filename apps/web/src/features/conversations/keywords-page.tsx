import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft, IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { createKeywordInput, type SmsKeyword } from '@lampstand/api/schemas/conversations';
import { KEYWORDS_NEED_OWN_NUMBER } from '@lampstand/api/schemas/sms-number';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { SmsTextCount } from '../campaigns/sms-text-count';

/** Add or change a keyword: the word(s), the reply, the list, the journey, the follow-up task. */
function KeywordDialog({ keyword, onClose }: { keyword: SmsKeyword | null; onClose: () => void }) {
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const journeys = trpc.journeys.list.useQuery();
  const form = useForm({
    initialValues: {
      keyword: keyword?.keyword ?? '',
      replyText: keyword?.replyText ?? '',
      listId: keyword?.listId ? String(keyword.listId) : null,
      journeyId: keyword?.journeyId ? String(keyword.journeyId) : null,
      taskTitle: keyword?.taskTitle ?? '',
    },
    validate: (v) =>
      schemaResolver(createKeywordInput, { sync: true })({
        ...v,
        listId: v.listId ? Number(v.listId) : null,
        journeyId: v.journeyId ? Number(v.journeyId) : null,
      }),
  });
  const invalidate = (u: ReturnType<typeof trpc.useUtils>) => u.smsKeywords.list.invalidate();
  const create = useSave(trpc.smsKeywords.create, {
    success: 'Keyword added',
    errorTitle: 'Failed to add the keyword',
    form,
    fieldErrorsOnly: true,
    invalidate,
    onSuccess: onClose,
  });
  const update = useSave(trpc.smsKeywords.update, {
    success: 'Keyword saved',
    errorTitle: 'Failed to save the keyword',
    form,
    fieldErrorsOnly: true,
    invalidate,
    onSuccess: onClose,
  });
  const title = keyword ? `Edit ${keyword.keyword}` : 'Add keyword';
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form
        onSubmit={form.onSubmit((v) => {
          const body = {
            keyword: v.keyword,
            replyText: v.replyText || null,
            listId: v.listId ? Number(v.listId) : null,
            journeyId: v.journeyId ? Number(v.journeyId) : null,
            taskTitle: v.taskTitle || null,
          };
          if (keyword) update.mutate({ id: keyword.id, ...body });
          else create.mutate(body);
        })}
      >
        <Stack>
          <TextInput
            label="Keyword"
            description="One or two words, e.g. PRAY or JOIN YOUTH. Any case; punctuation is ignored."
            required
            {...form.getInputProps('keyword')}
          />
          <Textarea
            label="Reply"
            description="Sent back to whoever texts the keyword. Leave empty for no reply."
            autosize
            minRows={2}
            {...form.getInputProps('replyText')}
          />
          {form.values.replyText ? <SmsTextCount content={form.values.replyText} /> : null}
          <Select
            label="Add to list"
            placeholder="No list"
            clearable
            data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
            {...form.getInputProps('listId')}
          />
          <Select
            label="Start a journey"
            description="Only an active journey starts; its entry rule decides whether a person enters again."
            placeholder="No journey"
            clearable
            data={(journeys.data ?? []).map((j) => ({ value: String(j.id), label: j.name }))}
            {...form.getInputProps('journeyId')}
          />
          <TextInput
            label="Create a follow-up task"
            description="A task with this title, due today, with the text in its notes. Leave empty for no task."
            placeholder="Prayer request"
            {...form.getInputProps('taskTitle')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {keyword ? 'Save keyword' : 'Add keyword'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Conversations → Keywords: what a text starting with a church's word does. */
export function KeywordsPage() {
  const keywords = trpc.smsKeywords.list.useQuery();
  const texting = trpc.settings.texting.useQuery();
  // On the shared number keywords are refused: the screen says why, and where to go.
  const shared = texting.data?.mode === 'shared';
  const [editing, setEditing] = useState<SmsKeyword | 'new' | null>(null);
  const del = useSave(trpc.smsKeywords.delete, {
    success: 'Keyword deleted',
    errorTitle: 'Failed to delete the keyword',
    invalidate: (u) => u.smsKeywords.list.invalidate(),
  });
  return (
    <>
      <Anchor component={Link} to="/conversations" size="sm" mb="xs" display="inline-flex" style={{ gap: 4 }}>
        <IconArrowLeft size={16} /> Conversations
      </Anchor>
      <PageHeader
        title="Keywords"
        description="A text that starts with a keyword gets its reply, joins its list, starts its journey or makes a follow-up task. STOP, START and HELP are answered for you."
        action={
          <Button onClick={() => setEditing('new')} disabled={shared}>
            Add keyword
          </Button>
        }
      />
      {shared ? (
        <Alert color="yellow" title="Keywords are off on the shared number" mb="md">
          <Stack gap="xs">
            <Text size="sm">{KEYWORDS_NEED_OWN_NUMBER}</Text>
            <Anchor component={Link} to="/settings/texting" size="sm">
              Add your number in Settings → Texting
            </Anchor>
          </Stack>
        </Alert>
      ) : null}
      {keywords.error ? (
        <Alert color="red" title="Failed to load keywords">
          {keywords.error.message}
        </Alert>
      ) : null}
      <DataTable<SmsKeyword>
        label="Keywords"
        rows={keywords.data ?? []}
        rowKey={(k) => k.id}
        empty={
          keywords.isLoading ? null : (
            <EmptyState
              icon={<IconKey size={24} />}
              title="No keywords yet."
              description="Add one, e.g. PRAY to answer prayer requests, or JOIN YOUTH to add people to a list."
              action={
                <Button onClick={() => setEditing('new')} disabled={shared}>
                  Add keyword
                </Button>
              }
            />
          )
        }
        columns={[
          { header: 'Keyword', card: 'title', cell: (k) => <Text fw={600}>{k.keyword}</Text> },
          {
            header: 'Reply',
            cell: (k) => (
              <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                {k.replyText ?? '—'}
              </Text>
            ),
          },
          { header: 'Adds to list', cell: (k) => k.listName ?? '—' },
          { header: 'Starts journey', cell: (k) => k.journeyName ?? '—' },
          { header: 'Follow-up task', cell: (k) => k.taskTitle ?? '—' },
          { header: 'Texts matched', cell: (k) => formatNumber(k.matches) },
        ]}
        actions={(k) => (
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="subtle" aria-label={`Edit ${k.keyword}`} onClick={() => setEditing(k)}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${k.keyword}`}
              onClick={() =>
                confirmDestructive({
                  title: 'Delete keyword',
                  text: `Delete ${k.keyword}? Texts starting with it will no longer get its reply or join its list.`,
                  confirm: 'Delete',
                  onConfirm: () => del.mutate({ id: k.id }),
                })
              }
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Group>
        )}
      />
      {editing ? <KeywordDialog keyword={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
