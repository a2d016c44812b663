import { Anchor, Box, Group, Image, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { trpc } from '../../lib/trpc';
import { formatDate, formatUsd } from '../../ui/format';
import { SHOW_UP_STALE_MS } from './labels';

export function UpdatesTab({ projectId }: { projectId: number }) {
  const updates = trpc.showUp.updates.useQuery({ id: projectId }, { staleTime: SHOW_UP_STALE_MS });
  if (updates.isLoading) return <Skeleton height={120} />;
  if (!updates.data?.length) return <Text c="dimmed">No updates yet.</Text>;
  return (
    <Stack>
      {updates.data.map((u) => (
        <Paper key={u.id} withBorder p="md">
          <Title order={3} size="h4">
            {u.title}
          </Title>
          <Text size="xs" c="dimmed" mb="xs">
            {formatDate(u.createdAt)}
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{u.content}</Text>
          {u.images.length ? (
            <SimpleGrid cols={{ base: 2, sm: 3 }} mt="sm">
              {u.images.map((img, i) => (
                <Anchor key={`${img.url}-${i}`} href={img.url} target="_blank" rel="noopener noreferrer">
                  <Image src={img.thumbnailUrl ?? img.url} alt={`${u.title}, image ${i + 1}`} radius="sm" />
                </Anchor>
              ))}
            </SimpleGrid>
          ) : null}
        </Paper>
      ))}
    </Stack>
  );
}

export function SupportersTab({ projectId }: { projectId: number }) {
  const supporters = trpc.showUp.supporters.useQuery({ id: projectId }, { staleTime: SHOW_UP_STALE_MS });
  if (supporters.isLoading) return <Skeleton height={120} />;
  if (!supporters.data?.length) return <Text c="dimmed">No supporters yet. Be the first to donate!</Text>;
  return (
    <Stack gap="xs" component="ul" p={0} style={{ listStyle: 'none' }} aria-label="Supporters">
      {supporters.data.map((s) => (
        <Paper key={s.id} withBorder p="sm" component="li">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Box>
              <Text fw={600}>{s.isAnonymous ? 'Anonymous' : s.donorName}</Text>
              {s.message ? (
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                  {s.message}
                </Text>
              ) : null}
            </Box>
            <Stack gap={0} align="flex-end">
              <Text fw={600}>{formatUsd(s.amount)}</Text>
              <Text size="xs" c="dimmed">
                {formatDate(s.createdAt)}
              </Text>
            </Stack>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
