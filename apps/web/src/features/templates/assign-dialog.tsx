import { Checkbox, Loader, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { notifyError } from '../../ui/notify';

type Target = { kind: 'template' | 'package'; id: number; name: string };

/** Assign one template or package to churches (checkboxes; unchecking unassigns). */
export function AssignToChurchesDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const users = trpc.admin.users.useQuery();
  const churches = (users.data ?? []).filter((u) => u.role === 'church');
  return (
    <Modal opened onClose={onClose} title={`Assign ${target.name}`} centered>
      {users.isLoading ? (
        <Loader aria-label="Loading churches" />
      ) : churches.length === 0 ? (
        <Text c="dimmed">No church accounts yet</Text>
      ) : (
        <ScrollArea.Autosize mah={400}>
          <Stack gap="xs">
            {churches.map((u) => (
              <ChurchRow key={u.id} userId={u.id} churchName={u.churchName} target={target} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}

function ChurchRow({ userId, churchName, target }: { userId: number; churchName: string; target: Target }) {
  const utils = trpc.useUtils();
  const assignments = trpc.adminTemplates.assignments.useQuery({ userId });
  const current = assignments.data?.find((a) =>
    target.kind === 'template' ? a.templateId === target.id : a.packageId === target.id,
  );
  const onError = (e: unknown) => notifyError('Error', errorMessage(e));
  const assign = trpc.adminTemplates.assign.useMutation({
    onSuccess: () => utils.adminTemplates.assignments.invalidate({ userId }),
    onError,
  });
  const unassign = trpc.adminTemplates.unassign.useMutation({
    onSuccess: () => utils.adminTemplates.assignments.invalidate({ userId }),
    onError,
  });
  return (
    <Checkbox
      label={churchName}
      checked={!!current}
      disabled={assignments.isLoading || assign.isPending || unassign.isPending}
      onChange={(e) => {
        const checked = e.currentTarget.checked;
        if (checked)
          assign.mutate(
            target.kind === 'template' ? { userId, templateId: target.id } : { userId, packageId: target.id },
          );
        else if (current) unassign.mutate({ id: current.id });
      }}
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
              churchName={p.name}
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
              churchName={`${t.name} (${t.type})`}
              target={{ kind: 'template', id: t.id, name: t.name }}
            />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Modal>
  );
}
