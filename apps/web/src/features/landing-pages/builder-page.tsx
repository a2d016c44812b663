import { Alert, Anchor, Badge, Button, Grid, Group, Loader, Menu, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { BLOCK_TYPES, landingPageContentSchema, type Block } from '@lampstand/api/schemas/landing-pages';
import { newBlock, normalizeContent } from '@lampstand/api/shared/landing-pages';
import { renderLandingPage } from '@lampstand/api/render/landing-page-html';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { useSession } from '../../shell/session';
import { PageHeader } from '../../ui/page-header';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';
import { AiContext, AiDisabledNote, AiGeneratorButton } from './ai';
import { confirmPublish, publishedToast } from './confirm-publish';
import { withGeneratedCopy } from '@lampstand/api/render/generated-copy';
import { BlockList, newId } from './builder-blocks';
import { BuilderPreview } from './builder-preview';

type Page = RouterOutputs['landingPages']['get'];
const EMPTY = { headline: '', subheading: '', mainContent: '', callToAction: '', keyPoints: [] };
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function Builder({ page }: { page: Page }) {
  const utils = trpc.useUtils();
  const { user } = useSession();
  const aiStatus = trpc.aiGenerator.status.useQuery();
  const [blocks, setBlocks] = useState<Block[]>(page.content.blocks);
  const [saved, setSaved] = useState(JSON.stringify(page.content.blocks));
  const dirty = JSON.stringify(blocks) !== saved;

  useUnsavedChangesGuard(dirty, 'This landing page');

  const update = useSave(trpc.landingPages.update, {
    success: 'Landing page updated',
    errorTitle: 'Failed to update landing page',
    onSuccess: async (p) => {
      setBlocks(p.content.blocks);
      setSaved(JSON.stringify(p.content.blocks));
      utils.landingPages.get.setData({ id: p.id }, p);
      await utils.landingPages.list.invalidate();
    },
  });
  const publish = useSave(trpc.landingPages.publish, {
    success: publishedToast,
    errorTitle: 'Failed to update landing page',
    onSuccess: async (p) => {
      utils.landingPages.get.setData({ id: p.id }, { ...p, content: page.content });
      await utils.landingPages.list.invalidate();
    },
  });
  const save = () => {
    const content = { ...EMPTY, blocks };
    const check = landingPageContentSchema.safeParse(content);
    if (!check.success) {
      update.fail(check.error.issues[0]?.message ?? 'Please check the blocks.');
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
            <BlockList blocks={blocks} setBlocks={setBlocks} />
            {blocks.length === 0 && (
              <Alert color="gray">This page has no blocks yet. Add a hero, some text or a sign-up form.</Alert>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <BuilderPreview html={preview} />
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
