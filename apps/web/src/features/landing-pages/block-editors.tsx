import '@mantine/tiptap/styles.css';
import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  ActionIcon,
} from '@mantine/core';
import { Link as LinkExtension, RichTextEditor } from '@mantine/tiptap';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import type { Block, CtaLink, ImageRef } from '@lampstand/api/schemas/landing-pages';
import { SIGNUP_FIELDS } from '@lampstand/api/schemas/landing-pages';
import { trpc } from '../../lib/trpc';
import { ImageUpload, type UploadedImage } from '../../ui/image-upload';
import { RegenerateButton } from './ai';
import { escapeHtml } from '@lampstand/api/render/html';

type Of<T extends Block['type']> = Extract<Block, { type: T }>;
interface EditorProps<T extends Block['type']> {
  block: Of<T>;
  onChange: (b: Of<T>) => void;
  /** Every block of the page (a button can point at a sign-up form). */
  blocks: Block[];
}

const toImage = (v: UploadedImage | null): ImageRef | null =>
  v ? { ...(v.id ? { id: v.id } : {}), url: v.url, ...(v.thumbnailUrl ? { thumbnailUrl: v.thumbnailUrl } : {}) } : null;

const plainToHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

/** A labelled text field with a regenerate-with-AI button beside it. */
function AiField({
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

function HeroEditor({ block, onChange }: EditorProps<'hero'>) {
  return (
    <Stack gap="sm">
      <AiField
        label="Headline"
        section="headline"
        value={block.headline}
        onChange={(headline) => onChange({ ...block, headline })}
      />
      <AiField
        label="Subheading"
        section="subheading"
        multiline
        value={block.subheading}
        onChange={(subheading) => onChange({ ...block, subheading })}
      />
      <ImageUpload
        label="Background image"
        description="Shown behind the headline, darkened so the text stays readable"
        value={block.backgroundImage}
        onChange={(v) => onChange({ ...block, backgroundImage: toImage(v) })}
      />
    </Stack>
  );
}

function TextEditor({ block, onChange }: EditorProps<'text'>) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), LinkExtension],
    content: block.html,
    editorProps: { attributes: { 'aria-labelledby': `${block.id}-label`, 'aria-multiline': 'true' } },
    onUpdate: ({ editor: e }) => onChange({ ...block, html: e.isEmpty ? '' : e.getHTML() }),
    immediatelyRender: true,
  });
  // Text replaced from outside (AI) is shown in the editor.
  useEffect(() => {
    if (editor && !editor.isFocused && editor.getHTML() !== block.html) editor.commands.setContent(block.html || '');
  }, [editor, block.html]);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500} id={`${block.id}-label`}>
          Main content
        </Text>
        <RegenerateButton
          section="mainContent"
          label="Main content"
          onText={(t) => onChange({ ...block, html: plainToHtml(t) })}
        />
      </Group>
      <RichTextEditor editor={editor} aria-labelledby={`${block.id}-label`}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={140} />
      </RichTextEditor>
    </Stack>
  );
}

function HighlightsEditor({ block, onChange }: EditorProps<'highlights'>) {
  const set = (i: number, v: string) => onChange({ ...block, items: block.items.map((x, j) => (j === i ? v : x)) });
  return (
    <Stack gap="sm">
      <TextInput
        label="Title"
        value={block.title}
        onChange={(e) => onChange({ ...block, title: e.currentTarget.value })}
      />
      {block.items.map((item, i) => (
        <Group key={i} align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label={`Key point ${i + 1}`}
            value={item}
            onChange={(e) => set(i, e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <RegenerateButton section={`keyPoint-${i}`} label={`Key point ${i + 1}`} onText={(t) => set(i, t)} />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={`Remove key point ${i + 1}`}
            onClick={() => onChange({ ...block, items: block.items.filter((_, j) => j !== i) })}
          >
            <IconX size={18} />
          </ActionIcon>
        </Group>
      ))}
      {block.items.length < 12 && (
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconPlus size={18} />}
          onClick={() => onChange({ ...block, items: [...block.items, ''] })}
          style={{ alignSelf: 'flex-start' }}
        >
          Add key point
        </Button>
      )}
    </Stack>
  );
}

function ImageEditor({ block, onChange }: EditorProps<'image'>) {
  return (
    <Stack gap="sm">
      <ImageUpload label="Image" value={block.image} onChange={(v) => onChange({ ...block, image: toImage(v) })} />
      <TextInput
        label="Image description"
        description="What the picture shows, for people using screen readers"
        value={block.alt}
        onChange={(e) => onChange({ ...block, alt: e.currentTarget.value })}
      />
      <TextInput
        label="Caption"
        value={block.caption}
        onChange={(e) => onChange({ ...block, caption: e.currentTarget.value })}
      />
    </Stack>
  );
}

function CtaEditor({ block, onChange, blocks }: EditorProps<'cta'>) {
  const forms = blocks.filter((b): b is Of<'signup'> => b.type === 'signup');
  const kind = block.link?.kind ?? 'none';
  const setLink = (link: CtaLink | null) => onChange({ ...block, link });
  return (
    <Stack gap="sm">
      <AiField
        label="Button text"
        section="callToAction"
        value={block.text}
        onChange={(text) => onChange({ ...block, text })}
      />
      <Select
        label="The button goes to"
        allowDeselect={false}
        data={[
          { value: 'signup', label: 'A sign-up form on this page' },
          { value: 'showup', label: 'A Show Up project' },
          { value: 'url', label: 'A web address' },
          { value: 'none', label: 'The first sign-up form, if any' },
        ]}
        value={kind}
        onChange={(v) =>
          setLink(
            v === 'signup' && forms[0]
              ? { kind: 'signup', blockId: forms[0].id }
              : v === 'showup'
                ? { kind: 'showup', projectId: 1 }
                : v === 'url'
                  ? { kind: 'url', url: 'https://' }
                  : null,
          )
        }
      />
      {block.link?.kind === 'signup' && (
        <Select
          label="Sign-up form"
          allowDeselect={false}
          data={forms.map((f, i) => ({ value: f.id, label: f.title || `Sign-up form ${i + 1}` }))}
          value={block.link.blockId}
          onChange={(v) => v && setLink({ kind: 'signup', blockId: v })}
        />
      )}
      {kind === 'signup' && forms.length === 0 && (
        <Text size="sm" c="dimmed">
          Add a sign-up form block to this page first.
        </Text>
      )}
      {block.link?.kind === 'showup' && (
        <NumberInput
          label="Show Up project number"
          min={1}
          allowDecimal={false}
          value={block.link.projectId}
          onChange={(v) => setLink({ kind: 'showup', projectId: Number(v) || 1 })}
        />
      )}
      {block.link?.kind === 'url' && (
        <TextInput
          label="Web address"
          value={block.link.url}
          onChange={(e) => setLink({ kind: 'url', url: e.currentTarget.value })}
        />
      )}
    </Stack>
  );
}

function EventEditor({ block, onChange }: EditorProps<'event'>) {
  const set = (patch: Partial<Of<'event'>>) => onChange({ ...block, ...patch });
  return (
    <Stack gap="sm">
      <TextInput label="Event title" value={block.title} onChange={(e) => set({ title: e.currentTarget.value })} />
      <Group grow align="flex-start">
        <TextInput
          label="Date"
          type="date"
          value={block.date ?? ''}
          onChange={(e) => set({ date: e.currentTarget.value || null })}
        />
        <TextInput
          label="Starts"
          type="time"
          value={block.startTime ?? ''}
          onChange={(e) => set({ startTime: e.currentTarget.value || null })}
        />
        <TextInput
          label="Ends"
          type="time"
          value={block.endTime ?? ''}
          onChange={(e) => set({ endTime: e.currentTarget.value || null })}
        />
      </Group>
      <TextInput label="Place" value={block.place} onChange={(e) => set({ place: e.currentTarget.value })} />
      <TextInput label="Address" value={block.address} onChange={(e) => set({ address: e.currentTarget.value })} />
      <TextInput
        label="Map link"
        description="Optional, e.g. a Google Maps or OpenStreetMap link"
        value={block.mapUrl}
        onChange={(e) => set({ mapUrl: e.currentTarget.value })}
      />
    </Stack>
  );
}

function ShowUpEditor({ block, onChange }: EditorProps<'showup'>) {
  return (
    <NumberInput
      label="Show Up project number"
      description="The page shows a card linking to this project"
      min={1}
      allowDecimal={false}
      value={block.projectId ?? ''}
      onChange={(v) => onChange({ ...block, projectId: v === '' ? null : Number(v) })}
    />
  );
}

const FIELD_LABELS: Record<(typeof SIGNUP_FIELDS)[number], string> = {
  phone: 'Phone',
  city: 'City',
  postalCode: 'Postal code',
};

function SignupEditor({ block, onChange }: EditorProps<'signup'>) {
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const set = (patch: Partial<Of<'signup'>>) => onChange({ ...block, ...patch });
  return (
    <Stack gap="sm">
      <TextInput label="Form title" value={block.title} onChange={(e) => set({ title: e.currentTarget.value })} />
      <Textarea
        label="Form description"
        autosize
        minRows={2}
        value={block.description}
        onChange={(e) => set({ description: e.currentTarget.value })}
      />
      <TextInput
        label="Button text"
        value={block.buttonText}
        onChange={(e) => set({ buttonText: e.currentTarget.value })}
      />
      <Select
        label="Add people to the list"
        description="Everyone who signs up becomes a contact of your church and joins this list"
        placeholder="No list"
        clearable
        data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
        value={block.listId ? String(block.listId) : null}
        onChange={(v) => set({ listId: v ? Number(v) : null })}
      />
      <Checkbox.Group
        label="Also ask for"
        description="Name and email are always asked"
        value={block.fields}
        onChange={(v) => set({ fields: v })}
      >
        <Group mt="xs">
          {SIGNUP_FIELDS.map((f) => (
            <Checkbox key={f} value={f} label={FIELD_LABELS[f]} />
          ))}
        </Group>
      </Checkbox.Group>
    </Stack>
  );
}

/** The fields of one block. */
export function BlockEditor({
  block,
  onChange,
  blocks,
}: {
  block: Block;
  onChange: (b: Block) => void;
  blocks: Block[];
}) {
  switch (block.type) {
    case 'hero':
      return <HeroEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'text':
      return <TextEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'highlights':
      return <HighlightsEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'image':
      return <ImageEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'cta':
      return <CtaEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'event':
      return <EventEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'showup':
      return <ShowUpEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'signup':
      return <SignupEditor block={block} onChange={onChange} blocks={blocks} />;
  }
}
