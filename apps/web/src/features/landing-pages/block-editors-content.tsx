import '@mantine/tiptap/styles.css';
import { Button, Group, Stack, Text, TextInput, ActionIcon } from '@mantine/core';
import { Link as LinkExtension, RichTextEditor } from '@mantine/tiptap';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import { ImageUpload } from '../../ui/image-upload';
import { RegenerateButton } from './ai';
import { type EditorProps, toImage, plainToHtml, AiField } from './block-editor-parts';

export function HeroEditor({ block, onChange }: EditorProps<'hero'>) {
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

export function TextEditor({ block, onChange }: EditorProps<'text'>) {
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

export function HighlightsEditor({ block, onChange }: EditorProps<'highlights'>) {
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

export function ImageEditor({ block, onChange }: EditorProps<'image'>) {
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
