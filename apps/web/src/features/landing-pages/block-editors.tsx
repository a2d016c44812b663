import '@mantine/tiptap/styles.css';
import type { Block } from '@lampstand/api/schemas/landing-pages';
import { HeroEditor, TextEditor, HighlightsEditor, ImageEditor } from './block-editors-content';
import {
  CtaEditor,
  EventEditor,
  GroupsEditor,
  RegisterEditor,
  ShowUpEditor,
  SignupEditor,
} from './block-editors-actions';

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
    case 'groups':
      return <GroupsEditor block={block} onChange={onChange} blocks={blocks} />;
    case 'register':
      return <RegisterEditor block={block} onChange={onChange} blocks={blocks} />;
  }
}
