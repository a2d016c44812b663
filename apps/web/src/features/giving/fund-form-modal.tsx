import { Modal, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { createFundSchema, type Fund } from '@lampstand/api/schemas/giving';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { FormActions } from '../../ui/form-actions';

/** Add a fund, or change one (name, description, public or staff-only). */
export function FundFormModal({ fund, onClose }: { fund?: Fund; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: fund?.name ?? '',
      description: fund?.description ?? '',
      isPublic: fund?.isPublic ?? true,
    },
    validate: schemaResolver(createFundSchema, { sync: true }),
  });
  const saved = {
    errorTitle: 'Error',
    form,
    invalidate: (utils: SaveUtils) => utils.funds.list.invalidate(),
    onSuccess: onClose,
  };
  const create = useSave(trpc.funds.create, { ...saved, success: 'Fund added', errorPrefix: 'Failed to add fund' });
  const update = useSave(trpc.funds.update, { ...saved, success: 'Fund saved', errorPrefix: 'Failed to save fund' });
  const isGeneral = fund?.name === 'General';
  return (
    <Modal opened onClose={onClose} title={fund ? `Edit ${fund.name}` : 'Add Fund'} centered>
      <form
        noValidate
        onSubmit={form.onSubmit((v) => (fund ? update.mutate({ id: fund.id, ...v }) : create.mutate(v)))}
      >
        <Stack>
          <TextInput label="Name" withAsterisk disabled={isGeneral} {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Switch
            label="Public: donors can choose it on the giving page"
            description="A staff-only fund is for gifts staff enter (cash, checks)."
            {...form.getInputProps('isPublic', { type: 'checkbox' })}
          />
          <FormActions
            onCancel={onClose}
            submit={fund ? 'Save Fund' : 'Add Fund'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
