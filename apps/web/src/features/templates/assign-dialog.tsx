import { Checkbox, Loader, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { errorMessage } from '../../lib/errors';
import { notifySuccess } from '../../ui/notify';

type Target = { kind: 'template' | 'package'; id: number; name: string };

/** Assign and unassign a church, with a toast either way; refreshes both dialogs' queries. */
function useAssignment(target: Target) {
  const utils = trpc.useUtils();
  const refresh = async (userId: number) => {
    await Promise.all([
      target.kind === 'template'
        ? utils.adminTemplates.templateChurches.invalidate({ id: target.id })
        : utils.adminTemplates.packageChurches.invalidate({ id: target.id }),
      utils.adminTemplates.assignments.invalidate({ userId }),
    ]);
  };
  const assign = useSave(trpc.adminTemplates.assign, { errorTitle: 'Error' });
  const unassign = useSave(trpc.adminTemplates.unassign, { errorTitle: 'Error' });
  return {
    pending: assign.isPending || unassign.isPending,
    toggle: (church: { userId: number; churchName: string }, assignmentId: number | undefined) => {
      if (assignmentId === undefined) {
        const ids = target.kind === 'template' ? { templateId: target.id } : { packageId: target.id };
        assign.mutate(
          { userId: church.userId, ...ids },
          {
            onSuccess: () => {
              notifySuccess('Assigned', `${target.name} is assigned to ${church.churchName}.`);
              void refresh(church.userId);
            },
          },
        );
      } else {
        unassign.mutate(
          { id: assignmentId },
          {
            onSuccess: () => {
              notifySuccess('Unassigned', `${target.name} is no longer assigned to ${church.churchName}.`);
              void refresh(church.userId);
            },
          },
        );
      }
    },
  };
}

/** Assign one template or package to churches (checkboxes; unticking unassigns). Two queries in all. */
export function AssignToChurchesDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const users = trpc.admin.users.useQuery();
  const templateChurches = trpc.adminTemplates.templateChurches.useQuery(
    { id: target.id },
    { enabled: target.kind === 'template' },
  );
  const packageChurches = trpc.adminTemplates.packageChurches.useQuery(
    { id: target.id },
    { enabled: target.kind === 'package' },
  );
  const assigned = target.kind === 'template' ? templateChurches : packageChurches;
  const assignmentIds = new Map((assigned.data ?? []).map((a) => [a.userId, a.assignmentId]));
  const { toggle, pending } = useAssignment(target);
  const churches = (users.data ?? []).filter((u) => u.role === 'church');
  return (
    <Modal opened onClose={onClose} title={`Assign ${target.name}`} centered>
      {users.isLoading || assigned.isLoading ? (
        <Loader aria-label="Loading churches" />
      ) : users.error || assigned.error ? (
        <Text c="red.8">{errorMessage(users.error ?? assigned.error)}</Text>
      ) : churches.length === 0 ? (
        <Text c="dimmed">No church accounts yet</Text>
      ) : (
        <ScrollArea.Autosize mah={400}>
          <Stack gap="xs">
            {churches.map((u) => (
              <Checkbox
                key={u.id}
                label={u.churchName}
                checked={assignmentIds.has(u.id)}
                disabled={pending || assigned.isFetching}
                onChange={() => toggle({ userId: u.id, churchName: u.churchName }, assignmentIds.get(u.id))}
              />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}

/** One row of the church's own dialog: this template or package, ticked when assigned to the church. */
function ChurchRow({
  userId,
  churchName,
  label,
  target,
}: {
  userId: number;
  churchName: string;
  label: string;
  target: Target;
}) {
  // Every row reads the same query (one request for the dialog).
  const assignments = trpc.adminTemplates.assignments.useQuery({ userId });
  const current = assignments.data?.find((a) =>
    target.kind === 'template' ? a.templateId === target.id : a.packageId === target.id,
  );
  const { toggle, pending } = useAssignment(target);
  return (
    <Checkbox
      label={label}
      checked={!!current}
      disabled={assignments.isLoading || assignments.isFetching || pending}
      onChange={() => toggle({ userId, churchName }, current?.id)}
    />
  );
}

/** From the users table: every template and package, checked where assigned to this church. */
export function ChurchTemplatesDialog({
  userId,
  churchName,
  onClose,
}: {
  userId: number;
  churchName: string;
  onClose: () => void;
}) {
  const templates = trpc.adminTemplates.templates.useQuery();
  const packages = trpc.adminTemplates.packages.useQuery();
  return (
    <Modal opened onClose={onClose} title={`Templates for ${churchName}`} centered size="lg">
      <ScrollArea.Autosize mah={480}>
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Packages
          </Text>
          {(packages.data ?? []).length === 0 ? (
            <Text c="dimmed" size="sm">
              No marketing packages found.
            </Text>
          ) : null}
          {(packages.data ?? []).map((p) => (
            <ChurchRow
              key={`p${p.id}`}
              userId={userId}
              churchName={churchName}
              label={p.name}
              target={{ kind: 'package', id: p.id, name: p.name }}
            />
          ))}
          <Text fw={600} size="sm" mt="sm">
            Templates
          </Text>
          {(templates.data ?? []).map((t) => (
            <ChurchRow
              key={`t${t.id}`}
              userId={userId}
              churchName={churchName}
              label={`${t.name} (${t.type})`}
              target={{ kind: 'template', id: t.id, name: t.name }}
            />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Modal>
  );
}
