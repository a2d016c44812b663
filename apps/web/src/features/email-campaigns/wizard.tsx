import '@mantine/tiptap/styles.css';
import '@mantine/dates/styles.css';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Stepper,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link as LinkExtension, RichTextEditor } from '@mantine/tiptap';
import { IconDeviceDesktop, IconDeviceMobile, IconSend } from '@tabler/icons-react';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  DEFAULT_EMAIL_CONTENT,
  emailCampaignBasicsSchema,
  emailCampaignDesignSchema,
  emailCampaignFieldsSchema,
  testEmailSchema,
} from '@lampstand/api/schemas/email-campaigns';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { formatNumber } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { labelledEditorProps } from '../../ui/rich-text';
import { confirmDiscard } from '../../ui/confirm';
import { DraftNotice } from '../../ui/draft-notice';
import { useFormDraft } from '../../ui/form-draft';
import { useSession } from '../../shell/session';
import { ZonedDateTimePicker } from '../../ui/zoned-date-time-picker';
import { nextWholeHour, useChurchTimeZone } from '../../lib/time-zone';
import { useSendConfirmation } from '../campaigns/send-confirmation';
import { SendingLimitNotice } from '../campaigns/sending-limit';

type Campaign = RouterOutputs['emailCampaigns']['get'];
const MERGE_TAGS = ['{{firstName}}', '{{lastName}}', '{{churchName}}'];

/** The campaign's fields as the API takes them, plus what happens on saving. */
interface Values {
  name: string;
  subject: string;
  listIds: number[];
  content: string;
  when: 'draft' | 'now' | 'later';
  /** UTC instant (ISO), entered in the church's time zone. */
  scheduledFor: string | null;
}

function ContentEditor({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), LinkExtension],
    content: value,
    editorProps: labelledEditorProps('Email content'),
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
    immediatelyRender: true,
  });
  return (
    <Stack gap="xs">
      <RichTextEditor editor={editor} aria-label="Email content">
        <RichTextEditor.Toolbar sticky stickyOffset={60}>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={240} />
      </RichTextEditor>
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Insert:
        </Text>
        {MERGE_TAGS.map((tag) => (
          <Button
            key={tag}
            size="compact-xs"
            variant="default"
            onClick={() => editor?.chain().focus().insertContent(tag).run()}
          >
            {tag}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

function Preview({ subject, content, listId }: { subject: string; content: string; listId: string }) {
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  const [testEmail, setTestEmail] = useState('');
  const [testState, setTestState] = useState<'idle' | 'sending' | 'sent' | 'error'>('idle');
  const [testError, setTestError] = useState<string | null>(null);
  const preview = trpc.emailCampaigns.preview.useMutation();
  const sendTest = trpc.emailCampaigns.sendTest.useMutation();
  useEffect(() => {
    preview.mutate({ subject, content, listId: listId ? Number(listId) : undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [subject, content, listId]);
  const test = async () => {
    const address = testEmailSchema.shape.testEmail.safeParse(testEmail);
    if (!address.success) {
      setTestError(address.error.issues[0]?.message ?? null);
      return;
    }
    setTestError(null);
    setTestState('sending');
    try {
      const res = await sendTest.mutateAsync({ testEmail: address.data, subject, content });
      setTestState('sent');
      notifySuccess('Test Email Sent', `Sent to ${res.to}. ${res.message}.`);
    } catch (err) {
      setTestState('error');
      notifyError('Failed to send test email', errorMessage(err));
    }
  };
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Text size="sm" c="dimmed">
            Subject
          </Text>
          <Text fw={600}>{preview.data?.subject ?? subject}</Text>
          {preview.data ? (
            <Text size="xs" c="dimmed">
              Merge tags filled from {preview.data.sample.firstName} {preview.data.sample.lastName}
            </Text>
          ) : null}
        </Stack>
        <SegmentedControl
          value={device}
          onChange={(v) => setDevice(v)}
          data={[
            {
              value: 'desktop',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconDeviceDesktop size={16} />
                  Desktop
                </Group>
              ),
            },
            {
              value: 'mobile',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconDeviceMobile size={16} />
                  Mobile
                </Group>
              ),
            },
          ]}
          aria-label="Preview width"
        />
      </Group>
      <Paper
        withBorder
        p={0}
        style={{
          overflow: 'hidden',
          display: 'flex',
          justifyContent: 'center',
          background: 'var(--mantine-color-gray-1)',
        }}
      >
        {preview.data ? (
          <iframe
            title="Email preview"
            sandbox=""
            srcDoc={preview.data.html}
            style={{ width: device === 'desktop' ? '100%' : 375, height: 520, border: 0, background: 'white' }}
          />
        ) : (
          <Loader m="xl" aria-label="Loading preview" />
        )}
      </Paper>
      <Paper withBorder p="md">
        <Text fw={600} size="sm" mb="xs">
          Send a test email
        </Text>
        <Group align="flex-start" wrap="nowrap">
          <TextInput
            label="Test email address"
            description="Your account email or one of your contacts (at most 20 an hour)"
            placeholder="you@example.org"
            value={testEmail}
            onChange={(e) => {
              setTestEmail(e.currentTarget.value);
              setTestState('idle');
            }}
            error={testError}
            style={{ flex: 1 }}
          />
          <Button
            mt={45}
            leftSection={<IconSend size={16} />}
            loading={testState === 'sending'}
            onClick={() => void test()}
            variant="light"
          >
            {testState === 'sent' ? 'Sent' : 'Send Test'}
          </Button>
        </Group>
        {testState === 'error' ? (
          <Text size="sm" c="red" mt="xs">
            Failed to send test email
          </Text>
        ) : null}
      </Paper>
    </Stack>
  );
}

function WizardForm({ campaign }: { campaign?: Campaign }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [params] = useSearchParams();
  const lists = trpc.contactLists.list.useQuery({ include_counts: true });
  const timeZone = useChurchTimeZone();
  const { confirmSend, confirmSchedule } = useSendConfirmation('email');
  const [active, setActive] = useState(0);
  const initialListId = campaign?.listIds[0] ?? (Number(params.get('listId')) || undefined);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: campaign?.name ?? '',
      subject: campaign?.subject ?? '',
      listIds: initialListId ? [initialListId] : [],
      content: campaign?.content ?? DEFAULT_EMAIL_CONTENT,
      // A campaign is saved as a draft unless the person chooses to send or schedule it.
      when: campaign?.status === 'scheduled' ? 'later' : 'draft',
      scheduledFor: campaign?.scheduledFor ?? null,
    },
  });
  const { user } = useSession();
  const autosave = useFormDraft<Values>(
    user ? `email-campaign:${user.id}:${campaign?.id ?? 'new'}` : null,
    form.values,
    form.isDirty(),
  );
  const cancel = () => {
    const leave = () => {
      autosave.clear();
      void navigate('/email-campaigns');
    };
    if (form.isDirty()) confirmDiscard({ what: 'this campaign', onDiscard: leave });
    else leave();
  };
  const v = form.values;
  // Steps unlock as the shared schema's picks of their fields pass.
  const basicsDone = emailCampaignBasicsSchema.safeParse(v).success;
  const design = emailCampaignDesignSchema.safeParse(v);
  const designDone = design.success;
  const scheduleDone = true;
  const previewDone = basicsDone && designDone && scheduleDone;
  const unlocked = [true, basicsDone, basicsDone && designDone, basicsDone && designDone && scheduleDone];

  const create = trpc.emailCampaigns.create.useMutation();
  const update = trpc.emailCampaigns.update.useMutation();
  const send = trpc.emailCampaigns.send.useMutation();
  const [saving, setSaving] = useState(false);

  const payload = () => ({
    name: v.name,
    subject: v.subject,
    content: v.content,
    listIds: v.listIds,
    status: v.when === 'later' ? ('scheduled' as const) : ('draft' as const),
    scheduledFor: v.when === 'later' ? v.scheduledFor : null,
  });

  const saveAndMaybeSend = async () => {
    setSaving(true);
    let saved: Campaign;
    try {
      const body = payload();
      saved = campaign ? await update.mutateAsync({ id: campaign.id, ...body }) : await create.mutateAsync(body);
      notifySuccess(campaign ? 'Campaign updated' : 'Campaign created');
      autosave.clear();
    } catch (err) {
      notifyError(
        'Error',
        `${campaign ? 'Failed to update campaign' : 'Failed to create campaign'}: ${errorMessage(err)}`,
      );
      setSaving(false);
      return;
    }
    if (v.when === 'now') {
      try {
        await send.mutateAsync({ id: saved.id });
        notifySuccess('Campaign sent successfully', 'Messages are on their way.');
      } catch (err) {
        notifyError('Failed to send campaign', errorMessage(err));
      }
    }
    await utils.emailCampaigns.invalidate();
    setSaving(false);
    void navigate('/email-campaigns');
  };

  const save = async () => {
    const checked = emailCampaignFieldsSchema.safeParse(payload());
    const scheduleIssue = checked.error?.issues.find((i) => i.path[0] === 'scheduledFor');
    if (scheduleIssue) {
      form.setFieldError('scheduledFor', scheduleIssue.message);
      setActive(2);
      return;
    }
    if (v.when === 'now')
      await confirmSend({ name: v.name, listIds: v.listIds, onConfirm: () => void saveAndMaybeSend() });
    else if (v.when === 'later')
      await confirmSchedule({ listIds: v.listIds, onConfirm: () => void saveAndMaybeSend() });
    else await saveAndMaybeSend();
  };

  const listOptions = (lists.data ?? [])
    .filter((l) => l.type === 'email' || l.type === 'both')
    .map((l) => ({ value: String(l.id), label: `${l.name} (${formatNumber(l.contactCount ?? 0)} contacts)` }));

  return (
    <Paper withBorder p="lg" maw={960}>
      {autosave.draft ? (
        <DraftNotice
          savedAt={autosave.draft.savedAt}
          onRestore={() => {
            form.setValues(autosave.draft!.values);
            autosave.dismiss();
          }}
          onDiscard={autosave.clear}
        />
      ) : null}
      <Stepper active={active} onStepClick={(i) => unlocked[i] && setActive(i)} allowNextStepsSelect={false} mb="xl">
        <Stepper.Step label="Basics" description="Name, subject, list" allowStepSelect={unlocked[0]}>
          <Stack maw={720}>
            <TextInput
              label="Campaign Name"
              withAsterisk
              placeholder="Easter Sunday invitation"
              {...form.getInputProps('name')}
            />
            <TextInput
              label="Subject Line"
              withAsterisk
              placeholder="Join us this Easter, {{firstName}}"
              {...form.getInputProps('subject')}
            />
            <Select
              label="Contact List"
              withAsterisk
              placeholder={
                lists.isLoading ? 'Loading lists...' : listOptions.length ? 'Choose a list' : 'No email lists yet'
              }
              data={listOptions}
              value={v.listIds[0] ? String(v.listIds[0]) : null}
              onChange={(id) => form.setFieldValue('listIds', id ? [Number(id)] : [])}
              error={form.errors.listIds}
            />
            {lists.isSuccess && listOptions.length === 0 ? (
              <Alert color="indigo">Create a contact list of type email or both on the Contacts page first.</Alert>
            ) : null}
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Design" description="Write the message" allowStepSelect={unlocked[1]}>
          <ContentEditor value={v.content} onChange={(html) => form.setFieldValue('content', html)} />
          {design.error ? (
            <Text size="sm" c="red.8" mt="xs" role="alert">
              {design.error.issues[0]?.message}
            </Text>
          ) : null}
        </Stepper.Step>
        <Stepper.Step label="Schedule" description="Draft, now or later" allowStepSelect={unlocked[2]}>
          <Stack maw={720}>
            <Radio.Group
              label="When should it go out?"
              value={v.when}
              onChange={(when) => {
                form.setFieldValue('when', when);
                if (when === 'later' && !v.scheduledFor)
                  form.setFieldValue('scheduledFor', nextWholeHour(timeZone).toISOString());
              }}
            >
              <Stack mt="xs">
                <Radio
                  value="draft"
                  label="Save as draft"
                  description="Nothing is sent; send it later from the list."
                />
                <Radio value="now" label="Send immediately after saving" />
                <Radio value="later" label="Schedule for later" />
              </Stack>
            </Radio.Group>
            {v.when === 'later' ? (
              <ZonedDateTimePicker timeZone={timeZone} withAsterisk {...form.getInputProps('scheduledFor')} />
            ) : null}
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Preview" description="Check and test" allowStepSelect={unlocked[3]}>
          <Preview subject={v.subject} content={v.content} listId={v.listIds[0] ? String(v.listIds[0]) : ''} />
        </Stepper.Step>
      </Stepper>
      <Group justify="space-between">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Group>
          <Button variant="default" disabled={active === 0} onClick={() => setActive((a) => a - 1)}>
            Back
          </Button>
          {active < 3 ? (
            <Button disabled={!unlocked[active + 1]} onClick={() => setActive((a) => a + 1)}>
              Next Step
            </Button>
          ) : (
            <Button disabled={!previewDone} loading={saving} onClick={() => void save()}>
              {v.when === 'now'
                ? 'Save and Send'
                : v.when === 'later'
                  ? 'Schedule Campaign'
                  : campaign
                    ? 'Save Changes'
                    : 'Save Draft'}
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

export function NewEmailCampaignPage() {
  return (
    <>
      <PageHeader title="New Email Campaign" description="Basics, design, schedule, preview." />
      <SendingLimitNotice />
      <WizardForm />
    </>
  );
}

export function EditEmailCampaignPage() {
  const { id } = useParams();
  const campaign = trpc.emailCampaigns.get.useQuery({ id: Number(id) }, { enabled: Number(id) > 0 });
  if (campaign.isLoading) return <Loader aria-label="Loading campaign" />;
  if (!campaign.data) return <Alert color="red">Campaign not found or you don't have permission to view it.</Alert>;
  if (campaign.data.status !== 'draft' && campaign.data.status !== 'scheduled') {
    return <Alert color="yellow">This campaign has already been sent and can no longer be edited.</Alert>;
  }
  return (
    <>
      <PageHeader title="Edit Email Campaign" description={campaign.data.name} />
      <SendingLimitNotice />
      <WizardForm campaign={campaign.data} />
    </>
  );
}
