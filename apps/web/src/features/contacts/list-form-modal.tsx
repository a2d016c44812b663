import { Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { contactListFieldsSchema } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { type ContactList } from './labels';
import { FormActions } from '../../ui/form-actions';

export function ListFormModal({ list, opened, onClose }: { list?: ContactList; opened: boolean; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: list?.name ?? '',
      description: list?.description ?? '',
      // A list of another type falls back to both in the form.
      type: list && ['email', 'sms', 'both'].includes(list.type) ? list.type : 'both',
    },
    validate: schemaResolver(contactListFieldsSchema, { sync: true }),
  });
  const saved = {
    errorTitle: 'Error',
    invalidate: (utils: SaveUtils) => utils.contactLists.list.invalidate(),
    onSuccess: () => {
      form.reset();
      onClose();
    },
  };
  const create = useSave(trpc.contactLists.create, {
    ...saved,
    success: 'List created',
    errorPrefix: 'Failed to create list',
  });
  const update = useSave(trpc.contactLists.update, {
    ...saved,
    success: 'List updated',
    errorPrefix: 'Failed to update list',
  });
  return (
    <Modal opened={opened} onClose={onClose} title={list ? 'Edit List' : 'Create List'} centered>
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          list ? update.mutate({ id: list.id, ...v, type: v.type }) : create.mutate({ ...v, type: v.type }),
        )}
      >
        <Stack>
          <TextInput label="List name" withAsterisk {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label="List type"
            allowDeselect={false}
            data={[
              { value: 'both', label: 'Email & SMS' },
              { value: 'email', label: 'Email only' },
              { value: 'sms', label: 'SMS only' },
            ]}
            {...form.getInputProps('type')}
          />
          <FormActions
            onCancel={onClose}
            submit={list ? 'Update List' : 'Create List'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
