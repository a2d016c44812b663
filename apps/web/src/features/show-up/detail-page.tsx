import {
  Alert,
  Anchor,
  AspectRatio,
  Badge,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Image,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconEdit, IconMapPin, IconMoodSad, IconPencilPlus, IconShare } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { httpStatus } from '../../lib/errors';
import { CATEGORY_COLOR, categoryLabel, SHOW_UP_STALE_MS } from './labels';
import { share, SideCard } from './project-side-card';
import { UpdatesTab, SupportersTab } from './project-tabs';

// The donation form (Stripe's Elements, the form library, the schemas with zod) loads when a donor
// shows they mean to give (pointer or focus on the project's side card), not on every visitor's
// first load of the page.
const loadDonateDialog = () => import('./donate-dialog');
const DonateDialog = lazy(() => loadDonateDialog().then((m) => ({ default: m.DonateDialog })));
const preloadDonateDialog = () => void loadDonateDialog();
const OwnerDonations = lazy(() => import('./donations-tab').then((m) => ({ default: m.OwnerDonations })));

export function ProjectNotFound() {
  return (
    <Center py={80}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconMoodSad size={28} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Project Not Found
        </Title>
        <Text c="dimmed">The project you're looking for doesn't exist or has been removed.</Text>
        <Button component={Link} to="/show-up" variant="light" leftSection={<IconArrowLeft size={18} />}>
          Back to Projects
        </Button>
      </Stack>
    </Center>
  );
}

export function ProjectDetailPage() {
  const { id } = useParams();
  const projectId = Number(id);
  const valid = Number.isInteger(projectId) && projectId > 0 && projectId < 2 ** 31;
  const project = trpc.showUp.get.useQuery({ id: projectId }, { enabled: valid, staleTime: SHOW_UP_STALE_MS });
  const supporters = trpc.showUp.supporters.useQuery(
    { id: projectId },
    { enabled: valid, staleTime: SHOW_UP_STALE_MS },
  );
  const [tab, setTab] = useState<string | null>('about');
  const [donating, setDonating] = useState(false);
  const [lastGift, setLastGift] = useState<string | null>(null);

  if (!valid || (project.isError && [400, 404].includes(httpStatus(project.error) ?? 0))) return <ProjectNotFound />;
  if (project.isError) {
    return (
      <Alert color="red" title="The project could not be loaded">
        <Stack gap="xs" align="flex-start">
          {project.error.message}
          <Button size="xs" variant="light" color="red" onClick={() => void project.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (project.isLoading || !project.data) {
    return (
      <Stack aria-busy="true" aria-label="Loading project">
        <Skeleton height={28} width="40%" />
        <Skeleton height={320} />
      </Stack>
    );
  }
  const p = project.data;

  return (
    <>
      <Anchor component={Link} to="/show-up" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} aria-hidden /> Back to Projects
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" mt="sm" mb="md" wrap="wrap" gap="sm">
        <Stack gap={6}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {p.title}
          </Title>
          <Group gap="sm">
            <Badge color={CATEGORY_COLOR[p.category] ?? 'gray'} variant="light">
              {categoryLabel(p.category)}
            </Badge>
            <Group gap={4} c="dimmed">
              <IconMapPin size={16} aria-hidden />
              <Text size="sm" c="dimmed">
                {p.location}
              </Text>
            </Group>
          </Group>
        </Stack>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconShare size={18} />} onClick={() => void share(p)}>
            Share
          </Button>
          {p.isOwner ? (
            <>
              <Button
                component={Link}
                to={`/show-up/${p.id}/edit`}
                variant="light"
                leftSection={<IconEdit size={18} />}
              >
                Edit Project
              </Button>
              <Button
                component={Link}
                to={`/show-up/${p.id}/update/new`}
                variant="light"
                leftSection={<IconPencilPlus size={18} />}
              >
                Post Update
              </Button>
            </>
          ) : null}
        </Group>
      </Group>

      {lastGift ? (
        <Alert
          color="green"
          title="Thank you for your gift"
          mb="md"
          withCloseButton
          closeButtonLabel="Close"
          onClose={() => setLastGift(null)}
        >
          <Anchor component={Link} to={`/show-up/donation-success?payment_intent=${lastGift}&project_id=${p.id}`}>
            See your donation and receipt
          </Anchor>
        </Alert>
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder p={0} radius="md" mb="lg" style={{ overflow: 'hidden' }}>
            <AspectRatio ratio={16 / 9}>
              {p.coverImage ? (
                <Image src={p.coverImage} alt={`Cover image of ${p.title}`} fit="cover" />
              ) : (
                <Center bg="indigo.0">
                  <Text fz={28} fw={700} c="indigo.9" ta="center" px="md">
                    {p.organizationName}
                  </Text>
                </Center>
              )}
            </AspectRatio>
          </Card>
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="about">About</Tabs.Tab>
              <Tabs.Tab
                value="updates"
                rightSection={
                  <Badge size="sm" variant="light" circle aria-label={`${p.updatesCount} updates`}>
                    {p.updatesCount}
                  </Badge>
                }
              >
                Updates
              </Tabs.Tab>
              <Tabs.Tab
                value="supporters"
                rightSection={
                  <Badge size="sm" variant="light" circle aria-label={`${supporters.data?.length ?? 0} supporters`}>
                    {supporters.data?.length ?? 0}
                  </Badge>
                }
              >
                Supporters
              </Tabs.Tab>
              {p.isOwner ? <Tabs.Tab value="donations">Donations</Tabs.Tab> : null}
            </Tabs.List>
            <Tabs.Panel value="about">
              <Stack>
                <Text fw={600} size="lg">
                  {p.shortDescription}
                </Text>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{p.description}</Text>
                {p.images.length ? (
                  <>
                    <Title order={2} size="h4" mt="sm">
                      Project Images
                    </Title>
                    <SimpleGrid cols={{ base: 2, sm: 3 }}>
                      {p.images.map((img, i) => (
                        <Anchor key={`${img.url}-${i}`} href={img.url} target="_blank" rel="noopener noreferrer">
                          <AspectRatio ratio={4 / 3}>
                            <Image src={img.url} alt={`${p.title}, image ${i + 1}`} radius="sm" fit="cover" />
                          </AspectRatio>
                        </Anchor>
                      ))}
                    </SimpleGrid>
                  </>
                ) : null}
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="updates">
              <UpdatesTab projectId={p.id} />
            </Tabs.Panel>
            <Tabs.Panel value="supporters">
              <SupportersTab projectId={p.id} />
            </Tabs.Panel>
            {p.isOwner ? (
              <Tabs.Panel value="donations">
                <Suspense fallback={<Skeleton height={160} />}>
                  <OwnerDonations projectId={p.id} />
                </Suspense>
              </Tabs.Panel>
            ) : null}
          </Tabs>
        </Grid.Col>
        <Grid.Col
          span={{ base: 12, md: 4 }}
          onPointerEnter={preloadDonateDialog}
          onFocusCapture={preloadDonateDialog}
          onTouchStart={preloadDonateDialog}
        >
          <SideCard project={p} onDonate={() => setDonating(true)} />
        </Grid.Col>
      </Grid>
      {donating ? (
        <Suspense fallback={null}>
          <DonateDialog
            project={p}
            onClose={() => setDonating(false)}
            onPaid={(pi) => {
              setDonating(false);
              setLastGift(pi);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
