import {
  Anchor,
  AspectRatio,
  Badge,
  Box,
  Card,
  Center,
  Group,
  Image,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconMapPin, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { ProjectCard as Card_ } from '@lampstand/api/schemas/show-up';
import { progressPercent } from '@lampstand/api/shared/show-up';
import { formatNumber, formatUsd } from '../../ui/format';
import { CATEGORY_COLOR, categoryLabel } from './labels';

/** A project in the list: cover (thumbnail), title, category, location, raised / target, supporters. */
export function ProjectCard({ project }: { project: Card_ }) {
  const pct = progressPercent(project.raisedAmount, project.targetAmount);
  const cover = project.coverThumbnailUrl ?? project.coverImage;
  return (
    <Card withBorder padding="md" radius="md" h="100%">
      <Card.Section>
        <AspectRatio ratio={16 / 9}>
          {cover ? (
            <Image src={cover} alt="" fit="cover" />
          ) : (
            <Center bg="indigo.0" p="md">
              <Text fw={600} c="indigo.9" ta="center">
                {project.organizationName}
              </Text>
            </Center>
          )}
        </AspectRatio>
      </Card.Section>
      <Stack gap="xs" mt="md" style={{ flex: 1 }}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
            <Anchor component={Link} to={`/show-up/${project.id}`} c="inherit">
              {project.title}
            </Anchor>
          </Title>
          <Badge color={CATEGORY_COLOR[project.category] ?? 'gray'} variant="light" style={{ flexShrink: 0 }}>
            {categoryLabel(project.category)}
          </Badge>
        </Group>
        <Group gap={4} c="dimmed" wrap="nowrap">
          <IconMapPin size={16} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" c="dimmed" lineClamp={1}>
            {project.location}
            {project.distanceKm != null ? ` · ${formatNumber(project.distanceKm)} km away` : ''}
          </Text>
        </Group>
        <Text size="sm" lineClamp={2}>
          {project.shortDescription}
        </Text>
        <Box mt="auto">
          <Group justify="space-between" mb={4} wrap="wrap" gap={4}>
            <Text size="sm" fw={600}>
              {formatUsd(project.raisedAmount)} raised
            </Text>
            <Text size="sm" c="dimmed">
              of {formatUsd(project.targetAmount)}
            </Text>
          </Group>
          <Progress value={pct} aria-label={`${pct}% funded`} size="md" />
          <Group justify="space-between" mt={6}>
            <Text size="xs" c="dimmed">
              {pct}% funded
            </Text>
            <Group gap={4}>
              <IconUsers size={14} aria-hidden />
              <Text size="xs" c="dimmed">
                {formatNumber(project.donationsCount)} {project.donationsCount === 1 ? 'supporter' : 'supporters'}
              </Text>
            </Group>
          </Group>
        </Box>
      </Stack>
    </Card>
  );
}
