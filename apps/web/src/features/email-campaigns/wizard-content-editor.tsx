import '@mantine/tiptap/styles.css';
import '@mantine/dates/styles.css';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Link as LinkExtension, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { labelledEditorProps } from '../../ui/rich-text';

export const MERGE_TAGS = ['{{firstName}}', '{{lastName}}', '{{churchName}}'];

export function ContentEditor({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), LinkExtension],
    content: value,
    editorProps: labelledEditorProps('Email content'),
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
    immediatelyRender: true,
  });
  return (
    <Stack gap="xs">
      <RichTextEditor editor={editor} aria-label="Email content">
        <RichTextEditor.Toolbar sticky stickyOffset={60}>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={240} />
      </RichTextEditor>
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Insert:
        </Text>
        {MERGE_TAGS.map((tag) => (
          <Button
            key={tag}
            size="compact-xs"
            variant="default"
            onClick={() => editor?.chain().focus().insertContent(tag).run()}
          >
            {tag}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
