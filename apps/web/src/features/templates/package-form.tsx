import { Select, Switch, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { packageFormSchema } from '@lampstand/api/schemas/templates';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { saveToasts } from './save-toasts';
import { AdminDialog } from './admin-dialog';
import { CATEGORY_OPTIONS, type Template } from './template-form';
import { FormActions } from '../../ui/form-actions';

export type Package = RouterOutputs['adminTemplates']['packages'][number];

const LINKS = [
  { field: 'emailTemplateId', type: 'email', label: 'Email template' },
  { field: 'smsTemplateId', type: 'sms', label: 'SMS template' },
  { field: 'printTemplateId', type: 'print', label: 'Print template' },
  { field: 'landingPageTemplateId', type: 'landing-page', label: 'Landing page template' },
] as const;

interface Values {
  name: string;
  category: string;
  description: string;
  thumbnail: string;
  emailTemplateId: string;
  smsTemplateId: string;
  printTemplateId: string;
  landingPageTemplateId: string;
  isActive: boolean;
}

export function PackageDialog({
  pkg,
  templates,
  onClose,
}: {
  pkg?: Package;
  templates: Template[];
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: pkg?.name ?? '',
      category: pkg?.category ?? '',
      description: pkg?.description ?? '',
      thumbnail: pkg?.thumbnail ?? '',
      emailTemplateId: pkg?.emailTemplateId ? String(pkg.emailTemplateId) : 'none',
      smsTemplateId: pkg?.smsTemplateId ? String(pkg.smsTemplateId) : 'none',
      printTemplateId: pkg?.printTemplateId ? String(pkg.printTemplateId) : 'none',
      landingPageTemplateId: pkg?.landingPageTemplateId ? String(pkg.landingPageTemplateId) : 'none',
      isActive: pkg?.isActive ?? true,
    },
    validate: schemaResolver(packageFormSchema, { sync: true }),
  });
  const toasts = saveToasts('package', {
    refresh: () => utils.adminTemplates.packages.invalidate(),
    reset: form.reset,
    close: onClose,
  });
  const create = useSave(trpc.adminTemplates.createPackage, toasts.create);
  const update = useSave(trpc.adminTemplates.updatePackage, toasts.update);
  return (
    <AdminDialog
      title={pkg ? 'Edit Package' : 'New Package'}
      onClose={onClose}
      onSubmit={form.onSubmit((v) =>
        pkg ? update.mutate({ id: pkg.id, ...packageFormSchema.parse(v) }) : create.mutate(packageFormSchema.parse(v)),
      )}
    >
      <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
      <Select label="Category" withAsterisk data={CATEGORY_OPTIONS} {...form.getInputProps('category')} />
      <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
      <TextInput label="Thumbnail URL" placeholder="https://" {...form.getInputProps('thumbnail')} />
      {LINKS.map((l) => (
        <Select
          key={l.field}
          label={l.label}
          allowDeselect={false}
          data={[
            { value: 'none', label: 'None' },
            ...templates.filter((t) => t.type === l.type).map((t) => ({ value: String(t.id), label: t.name })),
          ]}
          {...form.getInputProps(l.field)}
        />
      ))}
      <Switch label="Active" {...form.getInputProps('isActive', { type: 'checkbox' })} />
      <FormActions
        onCancel={onClose}
        submit={pkg ? 'Update Package' : 'Create Package'}
        saving={create.isPending || update.isPending}
      />
    </AdminDialog>
  );
}
