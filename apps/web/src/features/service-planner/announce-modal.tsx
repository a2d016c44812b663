import { Alert, Anchor, Button, Group, List, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PlanDetail } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';

export const DRAFT_LABELS: Record<string, string> = {
  email: 'Email campaign',
  sms: 'SMS campaign',
  'landing-page': 'Landing page',
  social: 'Social post',
};

/** 'Announce': drafts prefilled from the plan, each linked back to it. Nothing is sent. */
export function AnnounceModal({ plan, onClose }: { plan: PlanDetail; onClose: () => void }) {
  const lists = trpc.contactLists.list.useQuery({});
  const [listId, setListId] = useState<string | null>(null);
  const [daysBefore, setDaysBefore] = useState<number | string>(3);
  const ai = trpc.aiGenerator.status.useQuery();
  const utils = trpc.useUtils();
  const [made, setMade] = useState<{ drafts: PlanDetail['announcements']; copy: 'ai' | 'template' } | null>(null);
  // The drafts show at once; the plan's list of announcements is read again after.
  const announce = useSave(trpc.servicePlanner.plans.announce, {
    errorTitle: 'Failed to create drafts',
    onSuccess: async (res, input) => {
      setMade(res);
      await utils.servicePlanner.plans.get.invalidate({ id: input.planId });
    },
  });
  const create = () =>
    announce.mutate({
      planId: plan.id,
      listId: listId ? Number(listId) : null,
      socialDaysBefore: typeof daysBefore === 'number' ? daysBefore : 3,
    });
  return (
    <Modal opened onClose={onClose} title="Announce this service" size="lg">
      {made ? (
        <Stack>
          <Alert color="green" title="Drafts created">
            Nothing has been sent or published. Open each draft to check it, then send it as usual.
            {made.copy === 'ai'
              ? ' The words were written by AI from the plan: read them before sending.'
              : ai.data?.enabled
                ? ' AI could not write the words this time, so the drafts use plain templates.'
                : ''}
          </Alert>
          <List>
            {made.drafts.map((d) => (
              <List.Item key={`${d.kind}-${d.targetId}`}>
                <Anchor component={Link} to={d.path}>
                  Open {DRAFT_LABELS[d.kind] ?? d.kind} draft: {d.name}
                </Anchor>
              </List.Item>
            ))}
          </List>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            Make drafts from {plan.title}: its date, start time, location and theme, with your church&apos;s name.
          </Text>
          <List size="sm">
            <List.Item>An email campaign draft</List.Item>
            <List.Item>An SMS campaign draft</List.Item>
            <List.Item>A landing page draft with the event details (not published)</List.Item>
            <List.Item>A social post draft linking to that page (not scheduled)</List.Item>
          </List>
          <Text size="sm" c="dimmed">
            {ai.data?.enabled
              ? 'AI writes the words from the plan; you check them before anything goes out.'
              : 'The drafts use plain templates (AI copy is not set up).'}
          </Text>
          <Select
            label="Contact list"
            description="Who the drafts go to. You can choose later in each draft."
            placeholder="Choose later"
            clearable
            data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
            value={listId}
            onChange={setListId}
          />
          <NumberInput
            label="Social post: days before the service"
            description="The post is dated this many days before, at the service's start time."
            min={0}
            max={60}
            allowDecimal={false}
            clampBehavior="strict"
            value={daysBefore}
            onChange={setDaysBefore}
          />
          <Text size="sm" c="dimmed">
            Nothing is sent or published: each draft waits for you to check it and send it with the usual confirmation.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={create} loading={announce.isPending}>
              Create Drafts
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
