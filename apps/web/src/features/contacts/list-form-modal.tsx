import { Modal, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
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
      isPublic: list?.isPublic ?? false,
      publicDescription: list?.publicDescription ?? '',
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
          <Switch
            label="Public: people may join this list themselves"
            description="Shown on your church's public page, where people sign themselves up."
            {...form.getInputProps('isPublic', { type: 'checkbox' })}
          />
          {form.values.isPublic ? (
            <Textarea
              label="Public description"
              description="What people read beside the list on your public page."
              autosize
              minRows={2}
              {...form.getInputProps('publicDescription')}
            />
          ) : null}
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
