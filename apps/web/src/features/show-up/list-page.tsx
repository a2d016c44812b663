import {
  Alert,
  Button,
  Card,
  Group,
  Pagination,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconList, IconMap, IconPlus, IconSearch, IconSeeding } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MAP_MAX_PROJECTS, PROJECT_CATEGORIES } from '@lampstand/api/schemas/show-up-values';
import { trpc } from '../../lib/trpc';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { ProjectCard } from './project-card';
import { SHOW_UP_STALE_MS } from './labels';

const ProjectMap = lazy(() => import('./project-map').then((m) => ({ default: m.ProjectMap })));

const PAGE_SIZE = 12;
const CATEGORY_OPTIONS = [{ value: 'urgent', label: 'Urgent (ending soon)' }, ...PROJECT_CATEGORIES];

function CardsSkeleton() {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true" aria-label="Loading projects">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} withBorder padding="md" data-testid="project-skeleton">
          <Card.Section>
            <Skeleton height={160} radius={0} />
          </Card.Section>
          <Skeleton height={20} mt="md" width="70%" />
          <Skeleton height={12} mt="sm" width="40%" />
          <Skeleton height={12} mt="sm" />
          <Skeleton height={8} mt="md" />
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The browser's location, when the visitor allows it (map: nearest first). */
function useBrowserLocation(enabled: boolean) {
  const [coords, setCoords] = useState<{ lat: number; lng: number } | null>(null);
  useEffect(() => {
    if (!enabled || coords || !('geolocation' in navigator)) return;
    navigator.geolocation.getCurrentPosition(
      (pos) => setCoords({ lat: pos.coords.latitude, lng: pos.coords.longitude }),
      () => undefined,
      { maximumAge: 600_000, timeout: 10_000 },
    );
  }, [enabled, coords]);
  return coords;
}

export function ShowUpPage() {
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const view = params.get('view') === 'map' ? 'map' : 'list';
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const here = useBrowserLocation(view === 'map');

  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
    setPage(1);
  };
  // A new search starts at page 1 (state adjusted while rendering, not in an effect).
  const [searchOfPage, setSearchOfPage] = useState(debounced);
  if (searchOfPage !== debounced) {
    setSearchOfPage(debounced);
    setPage(1);
  }

  const filters = {
    search: debounced || undefined,
    category: category || undefined,
  };
  const list = trpc.showUp.list.useQuery(
    { ...filters, page, pageSize: PAGE_SIZE },
    { staleTime: SHOW_UP_STALE_MS, enabled: view === 'list', placeholderData: (prev) => prev },
  );
  const nearest = trpc.showUp.list.useQuery(
    { ...filters, page: 1, pageSize: MAP_MAX_PROJECTS, lat: here?.lat, lng: here?.lng },
    { staleTime: SHOW_UP_STALE_MS, enabled: view === 'map' },
  );
  const config = trpc.showUp.config.useQuery({}, { staleTime: SHOW_UP_STALE_MS, enabled: view === 'map' });
  const active = view === 'map' ? nearest : list;
  const hasFilters = !!(search || category);

  return (
    <>
      <PageHeader
        title="Show Up"
        description="Discover projects that need support, and show up for them."
        action={
          <Button component={Link} to="/show-up/new" leftSection={<IconPlus size={18} />}>
            List a Project
          </Button>
        }
      />
      <Group mb="md" align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label="Search projects"
          placeholder="Title, description, location or tag"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
        />
        <Select
          label="Category"
          placeholder="All categories"
          data={CATEGORY_OPTIONS.map((c) => ({ value: c.value, label: c.label }))}
          value={category || null}
          onChange={(v) => setParam('category', v)}
          clearable
          style={{ flex: '0 1 220px' }}
        />
        <Button
          variant="default"
          onClick={() => {
            setSearch('');
            const next = new URLSearchParams(params);
            next.delete('category');
            next.delete('search');
            setParams(next, { replace: true });
          }}
          disabled={!hasFilters}
        >
          Clear
        </Button>
        <SegmentedControl
          aria-label="View"
          value={view}
          onChange={(v) => setParam('view', v === 'map' ? 'map' : null)}
          data={[
            {
              value: 'list',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconList size={16} aria-hidden /> List
                </Group>
              ),
            },
            {
              value: 'map',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconMap size={16} aria-hidden /> Map
                </Group>
              ),
            },
          ]}
        />
      </Group>

      {active.isError ? (
        <Alert color="red" title="Projects could not be loaded">
          <Stack gap="xs" align="flex-start">
            {active.error.message}
            <Button size="xs" variant="light" color="red" onClick={() => void active.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : active.isLoading || !active.data ? (
        <CardsSkeleton />
      ) : active.data.items.length === 0 ? (
        <EmptyState
          icon={<IconSeeding size={26} />}
          title={hasFilters ? 'No projects match your search' : 'No projects yet'}
          description={
            hasFilters ? 'Try other words or another category.' : 'List the first project and invite people to help.'
          }
          action={
            <Button component={Link} to="/show-up/new" variant="light">
              List a Project
            </Button>
          }
        />
      ) : view === 'map' ? (
        <Suspense fallback={<Skeleton height={420} />}>
          <ProjectMap
            projects={active.data.items}
            tileUrl={config.data?.mapTileUrl}
            attribution={config.data?.mapAttribution}
            nearest={!!here}
          />
        </Suspense>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {active.data.items.map((p) => (
              <ProjectCard key={p.id} project={p} />
            ))}
          </SimpleGrid>
          {active.data.total > PAGE_SIZE ? (
            <Group justify="center" mt="lg">
              <Pagination
                total={Math.ceil(active.data.total / PAGE_SIZE)}
                value={page}
                onChange={setPage}
                getControlProps={(c) => ({
                  'aria-label': c === 'previous' ? 'Previous page' : c === 'next' ? 'Next page' : c,
                })}
                getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
              />
            </Group>
          ) : null}
        </>
      )}
    </>
  );
}
