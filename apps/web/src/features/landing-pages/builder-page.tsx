import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Loader,
  Menu,
  Paper,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  BLOCK_TYPES,
  landingPageContentSchema,
  newBlock,
  normalizeContent,
  type Block,
} from '@lampstand/api/schemas/landing-pages';
import { renderLandingPage } from '@lampstand/api/render/landing-page-html';
import { withGeneratedCopy } from '@lampstand/api/render/generated-copy';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSession } from '../../shell/session';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';
import { AiContext, AiDisabledNote, AiGeneratorButton } from './ai';
import { BlockEditor } from './block-editors';
import { confirmPublish } from './confirm-publish';

type Page = RouterOutputs['landingPages']['get'];
const label = (b: Block) => BLOCK_TYPES.find((t) => t.type === b.type)?.label ?? b.type;
const newId = () => `b${Math.random().toString(36).slice(2, 10)}`;
const EMPTY = { headline: '', subheading: '', mainContent: '', callToAction: '', keyPoints: [] };
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function SortableBlock({
  block,
  index,
  blocks,
  onChange,
  onRemove,
}: {
  block: Block;
  index: number;
  blocks: Block[];
  onChange: (b: Block) => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: block.id,
  });
  const name = `${index + 1}. ${label(block)}`;
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="md"
      radius="md"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        boxShadow: isDragging ? 'var(--mantine-shadow-md)' : undefined,
      }}
      component="section"
      aria-label={`${name} block`}
    >
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Reorder ${name}`}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <IconGripVertical size={18} />
          </ActionIcon>
          <Text fw={600}>{name}</Text>
        </Group>
        <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove ${name}`} onClick={onRemove}>
          <IconTrash size={18} />
        </ActionIcon>
      </Group>
      <BlockEditor block={block} onChange={onChange} blocks={blocks} />
    </Paper>
  );
}

function Builder({ page }: { page: Page }) {
  const utils = trpc.useUtils();
  const { user } = useSession();
  const aiStatus = trpc.aiGenerator.status.useQuery();
  const [blocks, setBlocks] = useState<Block[]>(page.content.blocks);
  const [saved, setSaved] = useState(JSON.stringify(page.content.blocks));
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  const dirty = JSON.stringify(blocks) !== saved;

  useUnsavedChangesGuard(dirty, 'This landing page');

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setBlocks((bs) => {
      const from = bs.findIndex((b) => b.id === active.id);
      const to = bs.findIndex((b) => b.id === over.id);
      return arrayMove(bs, from, to);
    });
  };
  const announce = (id: string | number) => {
    const i = blocks.findIndex((b) => b.id === id);
    return i >= 0 ? `${label(blocks[i]!)} block` : 'block';
  };
  const position = (id: string | number | undefined) => blocks.findIndex((b) => b.id === id) + 1;

  const update = trpc.landingPages.update.useMutation({
    onSuccess: async (p) => {
      notifySuccess('Landing page updated');
      setBlocks(p.content.blocks);
      setSaved(JSON.stringify(p.content.blocks));
      utils.landingPages.get.setData({ id: p.id }, p);
      await utils.landingPages.list.invalidate();
    },
    onError: (err) => notifyError('Failed to update landing page', errorMessage(err)),
  });
  const publish = trpc.landingPages.publish.useMutation({
    onSuccess: async (p) => {
      notifySuccess('Landing page updated', p.published ? 'The page is published.' : 'The page is a draft again.');
      utils.landingPages.get.setData({ id: p.id }, { ...p, content: page.content });
      await utils.landingPages.list.invalidate();
    },
    onError: (err) => notifyError('Failed to update landing page', errorMessage(err)),
  });
  const save = () => {
    const content = { ...EMPTY, blocks };
    const check = landingPageContentSchema.safeParse(content);
    if (!check.success) {
      notifyError('Failed to update landing page', check.error.issues[0]?.message ?? 'Please check the blocks.');
      return;
    }
    update.mutate({ id: page.id, name: page.name, slug: page.slug, content, published: page.published });
  };

  const preview = useMemo(() => {
    const parsed = landingPageContentSchema.safeParse({ ...EMPTY, blocks });
    const content = normalizeContent(parsed.success ? parsed.data : { ...EMPTY, blocks: [] });
    return renderLandingPage({
      publicUrl: window.location.origin,
      churchName: user?.churchName ?? '',
      name: page.name,
      slug: page.slug,
      content,
    });
  }, [blocks, page.name, page.slug, user?.churchName]);

  const ai = useMemo(
    () => ({
      enabled: !!aiStatus.data?.enabled,
      churchName: user?.churchName ?? '',
      pageContext: () => {
        const c = normalizeContent({ ...EMPTY, blocks });
        return [c.headline, c.subheading, textOf(c.mainContent), c.callToAction, ...c.keyPoints]
          .filter(Boolean)
          .join('\n');
      },
    }),
    [aiStatus.data?.enabled, user?.churchName, blocks],
  );

  const applyGenerated = (g: RouterOutputs['aiGenerator']['landingPage']) =>
    setBlocks((bs) => withGeneratedCopy(bs, g, newId));

  const current = trpc.landingPages.get.useQuery({ id: page.id }, { initialData: page }).data ?? page;

  return (
    <AiContext.Provider value={ai}>
      <PageHeader
        title={`Edit ${page.name}`}
        description={
          <>
            Build the page from blocks; drag a block by its handle (or focus the handle and use Space and the arrow
            keys) to reorder. Public address:{' '}
            <Anchor href={`/p/${page.slug}`} target="_blank" underline="always">
              /p/{page.slug}
            </Anchor>
          </>
        }
        action={
          <Group gap="xs">
            <Badge color={current.published ? 'green' : 'gray'} variant="light" size="lg">
              {current.published ? 'Published' : 'Draft'}
            </Badge>
            <Button
              variant="default"
              loading={publish.isPending}
              onClick={() =>
                confirmPublish(current, () => publish.mutate({ id: page.id, published: !current.published }))
              }
              disabled={dirty}
              title={dirty ? 'Save your changes first' : undefined}
            >
              {current.published ? 'Unpublish' : 'Publish'}
            </Button>
            <Button onClick={save} loading={update.isPending} disabled={!dirty}>
              Save
            </Button>
          </Group>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack>
            <Group justify="space-between">
              <Menu position="bottom-start">
                <Menu.Target>
                  <Button leftSection={<IconPlus size={18} />} variant="light">
                    Add block
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {BLOCK_TYPES.map((t) => (
                    <Menu.Item key={t.type} onClick={() => setBlocks((bs) => [...bs, newBlock(t.type, newId())])}>
                      {t.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
              <AiGeneratorButton onGenerated={applyGenerated} />
            </Group>
            <AiDisabledNote />
            {dirty && (
              <Text size="sm" fw={600} role="status">
                You have unsaved changes.
              </Text>
            )}
            <DndContext
              sensors={sensors}
              collisionDetection={closestCenter}
              onDragEnd={onDragEnd}
              accessibility={{
                announcements: {
                  onDragStart: ({ active }) => `Picked up ${announce(active.id)}.`,
                  onDragOver: ({ active, over }) =>
                    over
                      ? `${announce(active.id)} is over position ${position(over.id)}.`
                      : `${announce(active.id)} is not over a position.`,
                  onDragEnd: ({ active, over }) =>
                    over
                      ? `${announce(active.id)} moved to position ${position(over.id)}.`
                      : `${announce(active.id)} dropped.`,
                  onDragCancel: ({ active }) => `Moving ${announce(active.id)} was cancelled.`,
                },
              }}
            >
              <SortableContext items={blocks.map((b) => b.id)} strategy={verticalListSortingStrategy}>
                <Stack>
                  {blocks.map((b, i) => (
                    <SortableBlock
                      key={b.id}
                      block={b}
                      index={i}
                      blocks={blocks}
                      onChange={(nb) => setBlocks((bs) => bs.map((x) => (x.id === b.id ? nb : x)))}
                      onRemove={() => setBlocks((bs) => bs.filter((x) => x.id !== b.id))}
                    />
                  ))}
                </Stack>
              </SortableContext>
            </DndContext>
            {blocks.length === 0 && (
              <Alert color="gray">This page has no blocks yet. Add a hero, some text or a sign-up form.</Alert>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Box pos="sticky" top={76}>
            <Group justify="space-between" mb="xs">
              <Text fw={600}>Preview</Text>
              <SegmentedControl
                aria-label="Preview width"
                value={width}
                onChange={(v) => setWidth(v)}
                data={[
                  { value: 'desktop', label: 'Desktop' },
                  { value: 'phone', label: 'Phone' },
                ]}
              />
            </Group>
            <Paper withBorder radius="md" style={{ overflow: 'hidden', background: 'var(--mantine-color-gray-1)' }}>
              <iframe
                title="Page preview"
                srcDoc={preview}
                sandbox=""
                style={{
                  display: 'block',
                  border: 0,
                  width: width === 'phone' ? 390 : '100%',
                  maxWidth: '100%',
                  margin: '0 auto',
                  height: '75vh',
                  background: '#fff',
                }}
              />
            </Paper>
          </Box>
        </Grid.Col>
      </Grid>
    </AiContext.Provider>
  );
}

export function LandingPageBuilderPage() {
  const id = Number(useParams().id);
  const page = trpc.landingPages.get.useQuery({ id }, { enabled: Number.isInteger(id) && id > 0, retry: false });
  if (page.isLoading)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading" />
      </Group>
    );
  if (!page.data)
    return (
      <>
        <PageHeader title="Landing page not found" />
        <Alert color="red">
          This landing page does not exist or belongs to another church.{' '}
          <Anchor component={Link} to="/landing-pages" underline="always">
            Back to Landing Pages
          </Anchor>
        </Alert>
      </>
    );
  return <Builder key={page.data.id} page={page.data} />;
}
