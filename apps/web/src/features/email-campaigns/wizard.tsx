import '@mantine/tiptap/styles.css';
import '@mantine/dates/styles.css';
import { Alert, Button, Group, Loader, Paper, Stepper, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  DEFAULT_EMAIL_CONTENT,
  emailCampaignBasicsSchema,
  emailCampaignDesignSchema,
  emailCampaignFieldsSchema,
} from '@lampstand/api/schemas/email-campaigns';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { PageHeader } from '../../ui/page-header';
import { confirmDiscard } from '../../ui/confirm';
import { DraftNotice } from '../../ui/draft-notice';
import { useFormDraft } from '../../ui/form-draft';
import { useSession } from '../../shell/session';
import { useChurchTimeZone } from '../../lib/time-zone';
import { useSendConfirmation } from '../campaigns/send-confirmation';
import { SendingLimitNotice } from '../campaigns/sending-limit';
import { type Campaign, type Values } from './wizard-values';
import { ContentEditor } from './wizard-content-editor';
import { Preview } from './wizard-preview';
import { BasicsStep, ScheduleStep } from './wizard-steps';

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

  const send = useSave(trpc.emailCampaigns.send, {
    success: ['Campaign sent successfully', 'Messages are on their way.'],
    errorTitle: 'Failed to send campaign',
  });
  // Saving goes back to the list, sent or not: a send that fails has its own toast.
  const saved = {
    errorTitle: 'Error',
    onSuccess: async (c: Campaign) => {
      autosave.clear();
      if (v.when === 'now') await send.mutateAsync({ id: c.id }).catch(() => undefined);
      await utils.emailCampaigns.invalidate();
      void navigate('/email-campaigns');
    },
  };
  const create = useSave(trpc.emailCampaigns.create, {
    ...saved,
    success: 'Campaign created',
    errorPrefix: 'Failed to create campaign',
  });
  const update = useSave(trpc.emailCampaigns.update, {
    ...saved,
    success: 'Campaign updated',
    errorPrefix: 'Failed to update campaign',
  });
  const saving = create.isPending || update.isPending;

  const payload = () => ({
    name: v.name,
    subject: v.subject,
    content: v.content,
    listIds: v.listIds,
    status: v.when === 'later' ? ('scheduled' as const) : ('draft' as const),
    scheduledFor: v.when === 'later' ? v.scheduledFor : null,
  });

  const saveAndMaybeSend = () =>
    campaign ? update.mutate({ id: campaign.id, ...payload() }) : create.mutate(payload());

  const save = async () => {
    const checked = emailCampaignFieldsSchema.safeParse(payload());
    const scheduleIssue = checked.error?.issues.find((i) => i.path[0] === 'scheduledFor');
    if (scheduleIssue) {
      form.setFieldError('scheduledFor', scheduleIssue.message);
      setActive(2);
      return;
    }
    if (v.when === 'now') await confirmSend({ name: v.name, listIds: v.listIds, onConfirm: saveAndMaybeSend });
    else if (v.when === 'later') await confirmSchedule({ listIds: v.listIds, onConfirm: saveAndMaybeSend });
    else saveAndMaybeSend();
  };

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
          <BasicsStep form={form} lists={lists} />
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
          <ScheduleStep form={form} timeZone={timeZone} />
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
