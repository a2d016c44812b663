import { Anchor, Badge, Box, Button, Card, Divider, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconCalendar, IconHeart, IconUsers } from '@tabler/icons-react';
import type { Project } from '@lampstand/api/schemas/show-up';
import { progressPercent, websiteLabel } from '@lampstand/api/shared/show-up';
import { trpc } from '../../lib/trpc';
import { formatDate, formatNumber, formatUsd } from '../../ui/format';
import { showFailure } from '../../lib/use-save';
import { notifySuccess } from '../../ui/notify';
import { SHOW_UP_STALE_MS } from './labels';

export async function share(project: Project) {
  const url = `${window.location.origin}/show-up/${project.id}`;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: project.title, text: project.shortDescription, url });
      return;
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    notifySuccess('Link copied', 'The project link is on your clipboard.');
  } catch {
    showFailure({ errorTitle: 'Link not copied' }, url);
  }
}

export function SideCard({ project, onDonate }: { project: Project; onDonate: () => void }) {
  const pct = progressPercent(project.raisedAmount, project.targetAmount);
  const config = trpc.showUp.config.useQuery({ projectId: project.id }, { staleTime: SHOW_UP_STALE_MS });
  const giving = config.data?.giving;
  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm">
        <Box>
          <Text fz={28} fw={700} lh={1.2}>
            {formatUsd(project.raisedAmount)}
          </Text>
          <Text size="sm" c="dimmed">
            raised of {formatUsd(project.targetAmount)} goal
          </Text>
        </Box>
        <Progress value={pct} size="lg" aria-label={`${pct}% funded`} />
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            {pct}% funded
          </Text>
          <Group gap={4}>
            <IconUsers size={16} aria-hidden />
            <Text size="sm">
              {formatNumber(project.donationsCount)} {project.donationsCount === 1 ? 'supporter' : 'supporters'}
            </Text>
          </Group>
        </Group>
        <Group gap={6} c="dimmed">
          <IconCalendar size={16} aria-hidden />
          <Text size="sm" c="dimmed">
            Started {formatDate(project.startDate)}
            {project.endDate ? ` · ends ${formatDate(project.endDate)}` : ''}
          </Text>
        </Group>
        <Button
          size="md"
          leftSection={<IconHeart size={18} />}
          onClick={onDonate}
          disabled={!giving?.available}
          loading={config.isLoading}
        >
          Donate Now
        </Button>
        {giving && !giving.available && giving.message ? (
          <Text size="sm" c="dimmed">
            {giving.message}
          </Text>
        ) : null}
        <Divider my="xs" />
        <Title order={2} size="h5">
          About the Organizer
        </Title>
        <Stack gap={4}>
          <Text fw={600}>{project.organizationName}</Text>
          <Anchor href={`mailto:${project.contactEmail}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {project.contactEmail}
          </Anchor>
          {project.contactPhone ? (
            <Anchor href={`tel:${project.contactPhone}`} size="sm">
              {project.contactPhone}
            </Anchor>
          ) : null}
          {project.website ? (
            <Anchor href={project.website} target="_blank" rel="noopener noreferrer" size="sm">
              {websiteLabel(project.website)}
            </Anchor>
          ) : null}
        </Stack>
        {project.tags.length ? (
          <>
            <Divider my="xs" />
            <Title order={2} size="h5">
              Tags
            </Title>
            <Group gap={6}>
              {project.tags.map((t) => (
                <Badge key={t} variant="outline" color="gray">
                  {t}
                </Badge>
              ))}
            </Group>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
