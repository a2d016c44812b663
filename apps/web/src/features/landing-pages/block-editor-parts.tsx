import { Group, Textarea, TextInput } from '@mantine/core';
import type { Block, ImageRef } from '@lampstand/api/schemas/landing-pages';
import { type UploadedImage } from '../../ui/image-upload';
import { RegenerateButton } from './ai';
import { escapeHtml } from '@lampstand/api/render/html';

export type Of<T extends Block['type']> = Extract<Block, { type: T }>;

export interface EditorProps<T extends Block['type']> {
  block: Of<T>;
  onChange: (b: Of<T>) => void;
  /** Every block of the page (a button can point at a sign-up form). */
  blocks: Block[];
}

export const toImage = (v: UploadedImage | null): ImageRef | null =>
  v ? { ...(v.id ? { id: v.id } : {}), url: v.url, ...(v.thumbnailUrl ? { thumbnailUrl: v.thumbnailUrl } : {}) } : null;

export const plainToHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

/** A labelled text field with a regenerate-with-AI button beside it. */
export function AiField({
  label,
  value,
  onChange,
  section,
  multiline,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  section: string;
  multiline?: boolean;
}) {
  const Field = multiline ? Textarea : TextInput;
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <Field
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        style={{ flex: 1 }}
        {...(multiline ? { autosize: true, minRows: 2 } : {})}
      />
      <RegenerateButton section={section} label={label} onText={onChange} />
    </Group>
  );
}
