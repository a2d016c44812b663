import { Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import type { z } from 'zod';
import { useNavigate } from 'react-router-dom';
import { landingPageFieldsSchema } from '@lampstand/api/schemas/landing-pages';
import { slugify } from '@lampstand/api/shared/landing-pages';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { FormActions } from '../../ui/form-actions';

type Page = RouterOutputs['landingPages']['get'];
const nameSlugSchema = landingPageFieldsSchema.pick({ name: true, slug: true });
type Values = z.input<typeof nameSlugSchema>;

/** The spec's create and edit dialog: name, and a slug suggested from the name (editable). */
export function PageDialog({ opened, onClose, page }: { opened: boolean; onClose: () => void; page?: Page }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const [slugTouched, setSlugTouched] = useState(!!page);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { name: page?.name ?? '', slug: page?.slug ?? '' },
    validate: schemaResolver(nameSlugSchema, { sync: true }),
  });
  const create = useSave(trpc.landingPages.create, {
    success: 'Landing page created',
    errorTitle: 'Failed to create landing page',
    form,
    invalidate: (utils) => utils.landingPages.list.invalidate(),
    onSuccess: (p) => {
      onClose();
      void navigate(`/landing-pages/${p.id}`);
    },
  });
  const update = useSave(trpc.landingPages.update, {
    success: 'Landing page updated',
    errorTitle: 'Failed to update landing page',
    form,
    onSuccess: async (p) => {
      utils.landingPages.get.setData({ id: p.id }, p);
      await utils.landingPages.list.invalidate();
      onClose();
    },
  });
  const submit = form.onSubmit((v) =>
    page
      ? update.mutate({ id: page.id, name: v.name, slug: v.slug, content: page.content, published: page.published })
      : create.mutate({ name: v.name, slug: v.slug }),
  );
  return (
    <Modal opened={opened} onClose={onClose} title={page ? 'Edit Landing Page' : 'Create Landing Page'} size={600}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            withAsterisk
            data-autofocus
            {...form.getInputProps('name')}
            onChange={(e) => {
              const name = e.currentTarget.value;
              form.setFieldValue('name', name);
              if (!slugTouched) form.setFieldValue('slug', slugify(name));
            }}
          />
          <TextInput
            label="Slug"
            description={`The page's address: /p/${form.values.slug || 'your-slug'}`}
            withAsterisk
            {...form.getInputProps('slug')}
            onChange={(e) => {
              setSlugTouched(true);
              form.setFieldValue('slug', e.currentTarget.value);
            }}
          />
          <FormActions
            onCancel={onClose}
            submit={page ? 'Save Changes' : 'Create Landing Page'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
