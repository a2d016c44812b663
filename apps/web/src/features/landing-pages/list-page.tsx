import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import {
  IconChartBar,
  IconCopy,
  IconDots,
  IconEdit,
  IconExternalLink,
  IconLayoutGrid,
  IconPencil,
  IconPlus,
  IconTrash,
  IconWorld,
  IconWorldOff,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { PageDialog } from './page-dialog';
import { relativeTime } from './relative-time';
import { confirmPublish, publishedToast } from './confirm-publish';

type Page = RouterOutputs['landingPages']['list'][number];

function PageCard({ page, onEdit }: { page: Page; onEdit: () => void }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const refresh = () => utils.landingPages.list.invalidate();
  const publish = useSave(trpc.landingPages.publish, {
    success: publishedToast,
    errorTitle: 'Failed to update landing page',
    invalidate: refresh,
  });
  const duplicate = useSave(trpc.landingPages.duplicate, {
    success: (p) => ['Landing page created', `${p.name} is a draft at /p/${p.slug}.`],
    errorTitle: 'Failed to create landing page',
    invalidate: refresh,
  });
  const remove = useSave(trpc.landingPages.delete, {
    success: 'Landing page deleted',
    errorTitle: 'Failed to delete landing page',
    invalidate: refresh,
  });
  const askPublish = () => confirmPublish(page, () => publish.mutate({ id: page.id, published: !page.published }));
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="center" wrap="nowrap">
        <Badge color={page.published ? 'green' : 'gray'} variant="light" style={{ overflow: 'visible' }}>
          {page.published ? 'Published' : 'Draft'}
        </Badge>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Actions for ${page.name}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconLayoutGrid size={16} />}
              onClick={() => void navigate(`/landing-pages/${page.id}`)}
            >
              Open builder
            </Menu.Item>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
              Edit name and slug
            </Menu.Item>
            <Menu.Item
              leftSection={page.published ? <IconWorldOff size={16} /> : <IconWorld size={16} />}
              onClick={askPublish}
            >
              {page.published ? 'Unpublish' : 'Publish'}
            </Menu.Item>
            <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => duplicate.mutate({ id: page.id })}>
              Duplicate
            </Menu.Item>
            <Menu.Item
              leftSection={<IconChartBar size={16} />}
              onClick={() => void navigate(`/landing-pages/${page.id}/stats`)}
            >
              Visits and sign-ups
            </Menu.Item>
            <Menu.Item
              leftSection={<IconExternalLink size={16} />}
              component="a"
              href={`/p/${page.slug}`}
              target="_blank"
            >
              Open public page
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() =>
                confirmDestructive({
                  title: 'Delete landing page',
                  text: `Delete ${page.name}? The page at /p/${page.slug}, its ${formatNumber(page.visits30d)} recent visits and its sign-up records are removed. Contacts who signed up stay.`,
                  confirm: 'Delete',
                  onConfirm: () => remove.mutate({ id: page.id }),
                })
              }
            >
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Stack gap={4} mt="xs">
        <Text fw={600} component="h2" size="lg" m={0} style={{ overflowWrap: 'break-word' }}>
          {page.name}
        </Text>
        <Anchor href={`/p/${page.slug}`} target="_blank" size="sm" style={{ overflowWrap: 'anywhere' }}>
          /p/{page.slug}
        </Anchor>
      </Stack>
      <Text size="sm" c="dimmed" mt="sm">
        {page.published && page.publishedAt ? `Published ${relativeTime(page.publishedAt)}` : 'Not published yet'}
      </Text>
      <Group gap="lg" mt="sm">
        <Text size="sm">
          <b>{formatNumber(page.visits30d)}</b> visits in the last 30 days
        </Text>
        <Text size="sm">
          <b>{formatNumber(page.signups)}</b> sign-ups
        </Text>
      </Group>
      <Group mt="md" gap="xs">
        <Button
          size="xs"
          leftSection={<IconEdit size={18} />}
          component={Link}
          to={`/landing-pages/${page.id}`}
          aria-label={`Edit ${page.name}`}
        >
          Edit
        </Button>
        <Button
          size="xs"
          variant="default"
          loading={publish.isPending}
          onClick={askPublish}
          aria-label={`${page.published ? 'Unpublish' : 'Publish'} ${page.name}`}
        >
          {page.published ? 'Unpublish' : 'Publish'}
        </Button>
      </Group>
    </Card>
  );
}

export function LandingPagesPage() {
  const pages = trpc.landingPages.list.useQuery();
  const location = useLocation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Page | null>(null);
  const creating = location.pathname === '/landing-pages/new';
  const [createOpen, setCreateOpen] = useState(false);
  const closeCreate = () => {
    setCreateOpen(false);
    if (creating) void navigate('/landing-pages', { replace: true });
  };
  return (
    <>
      <PageHeader
        title="Landing Pages"
        description="Pages for events and ministries, with AI-written copy and sign-up forms."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreateOpen(true)}>
            Create Landing Page
          </Button>
        }
      />
      {pages.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={190} radius="md" />
          ))}
        </SimpleGrid>
      ) : pages.error ? (
        <Alert color="red" title="Error">
          There was an error loading your landing pages. Please try again later.
        </Alert>
      ) : pages.data && pages.data.length === 0 ? (
        <EmptyState
          icon={<IconLayoutGrid size={24} />}
          title="No landing pages yet"
          description="Create a page for your next event or ministry, then share its link or QR code."
          action={
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreateOpen(true)}>
              Create Landing Page
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {pages.data?.map((p) => (
            <PageCard key={p.id} page={p} onEdit={() => setEditing(p)} />
          ))}
        </SimpleGrid>
      )}
      {(createOpen || creating) && <PageDialog opened onClose={closeCreate} />}
      {editing && <PageDialog opened page={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
