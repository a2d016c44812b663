import '@mantine/tiptap/styles.css';
import { Group, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link as LinkExtension, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { TEMPLATE_CATEGORIES, TEMPLATE_TYPES, templateFormSchema } from '@lampstand/api/schemas/templates';
import { smsSegments } from '@lampstand/api/shared/sms';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { saveToasts } from './save-toasts';
import { AdminDialog } from './admin-dialog';
import { labelledEditorProps } from '../../ui/rich-text';
import { FormActions } from '../../ui/form-actions';

export type Template = RouterOutputs['adminTemplates']['templates'][number];
export const CATEGORY_OPTIONS = TEMPLATE_CATEGORIES.map((c) => ({ value: c, label: c[0]!.toUpperCase() + c.slice(1) }));

function HtmlEditor({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), LinkExtension],
    content: value,
    editorProps: labelledEditorProps(label),
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
    immediatelyRender: true,
  });
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <RichTextEditor editor={editor} aria-label={label}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.H2 />
            <RichTextEditor.BulletList />
            <RichTextEditor.Link />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={160} />
      </RichTextEditor>
    </Stack>
  );
}

interface Values {
  name: string;
  type: string;
  category: string;
  description: string;
  thumbnail: string;
  isActive: boolean;
  content: {
    subject: string;
    html: string;
    text: string;
    headline: string;
    subheading: string;
    mainContent: string;
    callToAction: string;
    keyPoints: string;
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function TemplateDialog({ template, onClose }: { template?: Template; onClose: () => void }) {
  const utils = trpc.useUtils();
  const c = template?.content ?? {};
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: template?.name ?? '',
      type: template?.type ?? '',
      category: template?.category ?? '',
      description: template?.description ?? '',
      thumbnail: template?.thumbnail ?? '',
      isActive: template?.isActive ?? true,
      content: {
        subject: text(c.subject),
        html: text(c.html),
        text: text(c.text),
        headline: text(c.headline),
        subheading: text(c.subheading),
        mainContent: text(c.mainContent),
        callToAction: text(c.callToAction),
        keyPoints: Array.isArray(c.keyPoints) ? (c.keyPoints as string[]).join('\n') : '',
      },
    },
    validate: schemaResolver(templateFormSchema, { sync: true }),
  });
  const toasts = saveToasts('template', {
    refresh: () => utils.adminTemplates.templates.invalidate(),
    reset: form.reset,
    close: onClose,
  });
  const create = useSave(trpc.adminTemplates.createTemplate, toasts.create);
  const update = useSave(trpc.adminTemplates.updateTemplate, toasts.update);
  const v = form.values;
  const seg = smsSegments(v.content.text);
  return (
    <AdminDialog
      title={template ? 'Edit Template' : 'New Template'}
      onClose={onClose}
      onSubmit={form.onSubmit((vals) =>
        template
          ? update.mutate({ id: template.id, ...templateFormSchema.parse(vals) })
          : create.mutate(templateFormSchema.parse(vals)),
      )}
    >
      <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
      <Group grow align="flex-start">
        <Select
          label="Type"
          withAsterisk
          data={TEMPLATE_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          {...form.getInputProps('type')}
        />
        <Select label="Category" withAsterisk data={CATEGORY_OPTIONS} {...form.getInputProps('category')} />
      </Group>
      <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
      <TextInput label="Thumbnail URL" placeholder="https://" {...form.getInputProps('thumbnail')} />
      {v.type === 'email' ? (
        <>
          <TextInput label="Email subject" {...form.getInputProps('content.subject')} />
          <HtmlEditor
            label="Email body"
            value={v.content.html}
            onChange={(h) => form.setFieldValue('content.html', h)}
          />
        </>
      ) : null}
      {v.type === 'sms' ? (
        <>
          <Textarea label="SMS text" autosize minRows={3} {...form.getInputProps('content.text')} />
          <Text size="sm" c="dimmed">
            {seg.characters} characters · {seg.encoding} · {seg.segments} {seg.segments === 1 ? 'segment' : 'segments'}
          </Text>
        </>
      ) : null}
      {v.type === 'landing-page' ? (
        <>
          <TextInput label="Headline" {...form.getInputProps('content.headline')} />
          <TextInput label="Subheading" {...form.getInputProps('content.subheading')} />
          <Textarea label="Main content" autosize minRows={3} {...form.getInputProps('content.mainContent')} />
          <TextInput label="Call to action" {...form.getInputProps('content.callToAction')} />
          <Textarea
            label="Key points (one per line)"
            autosize
            minRows={2}
            {...form.getInputProps('content.keyPoints')}
          />
        </>
      ) : null}
      {v.type === 'print' ? (
        <HtmlEditor label="Flyer" value={v.content.html} onChange={(h) => form.setFieldValue('content.html', h)} />
      ) : null}
      <Switch label="Active" {...form.getInputProps('isActive', { type: 'checkbox' })} />
      <FormActions
        onCancel={onClose}
        submit={template ? 'Update Template' : 'Create Template'}
        saving={create.isPending || update.isPending}
      />
    </AdminDialog>
  );
}
