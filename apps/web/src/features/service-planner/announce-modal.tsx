import { Alert, Anchor, Button, Group, List, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PlanDetail } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { notifyError } from '../../ui/notify';

export const DRAFT_LABELS: Record<string, string> = {
  email: 'Email campaign',
  sms: 'SMS campaign',
};

/** 'Announce': drafts prefilled from the plan, each linked back to it. Nothing is sent. */
export function AnnounceModal({ plan, onClose }: { plan: PlanDetail; onClose: () => void }) {
  const lists = trpc.contactLists.list.useQuery({});
  const [listId, setListId] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const announce = trpc.servicePlanner.plans.announce.useMutation();
  const [made, setMade] = useState<PlanDetail['announcements'] | null>(null);
  const create = async () => {
    try {
      const res = await announce.mutateAsync({ planId: plan.id, listId: listId ? Number(listId) : null });
      setMade(res.drafts);
      await utils.servicePlanner.plans.get.invalidate({ id: plan.id });
    } catch (err) {
      notifyError('Failed to create drafts', errorMessage(err));
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title="Announce this service"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {made ? (
        <Stack>
          <Alert color="green" title="Drafts created">
            Nothing has been sent. Open each draft to check it, then send it as usual.
          </Alert>
          <List>
            {made.map((d) => (
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
          </List>
          <Select
            label="Contact list"
            description="Who the drafts go to. You can choose later in each draft."
            placeholder="Choose later"
            clearable
            data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
            value={listId}
            onChange={setListId}
          />
          <Text size="sm" c="dimmed">
            Nothing is sent or published: each draft waits for you to check it and send it with the usual confirmation.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void create()} loading={announce.isPending}>
              Create Drafts
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
