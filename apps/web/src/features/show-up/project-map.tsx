import { Anchor, Box, List, Stack, Text, Title } from '@mantine/core';
import { CircleMarker, Tooltip } from 'react-leaflet';
import { Link, useNavigate } from 'react-router-dom';
import type { ProjectCard } from '@lampstand/api/schemas/show-up';
import { formatUsd } from '../../ui/format';
import { TiledMap } from '../../ui/tiled-map';

/**
 * At most 5 projects (nearest first when the browser's location is known) on a Leaflet map with
 * tiles from MAP_TILE_URL. Where tiles cannot load, the map says so and the list below still works.
 */
export function ProjectMap({
  projects,
  tileUrl,
  attribution,
  nearest,
}: {
  projects: ProjectCard[];
  tileUrl?: string;
  attribution?: string;
  nearest: boolean;
}) {
  const navigate = useNavigate();
  const placed = projects.filter((p) => p.latitude != null && p.longitude != null);
  const center: [number, number] = placed.length
    ? [
        placed.reduce((s, p) => s + p.latitude!, 0) / placed.length,
        placed.reduce((s, p) => s + p.longitude!, 0) / placed.length,
      ]
    : [20, 0];
  const bounds = placed.length > 1 ? placed.map((p) => [p.latitude!, p.longitude!] as [number, number]) : undefined;

  return (
    <Stack gap="md">
      <TiledMap
        label="Map of projects"
        tileUrl={tileUrl}
        attribution={attribution}
        failedText="Map tiles cannot be reached from here. The projects are listed below."
        height={{ base: 320, sm: 420 }}
        view={{ center, zoom: placed.length === 1 ? 10 : 3, bounds, boundsOptions: { padding: [40, 40] } }}
      >
        {placed.map((p) => (
          <CircleMarker
            key={p.id}
            center={[p.latitude!, p.longitude!]}
            radius={10}
            pathOptions={{ color: '#364fc7', fillColor: '#4c6ef5', fillOpacity: 0.85, weight: 2 }}
            eventHandlers={{ click: () => void navigate(`/show-up/${p.id}`) }}
          >
            <Tooltip>{p.title}</Tooltip>
          </CircleMarker>
        ))}
      </TiledMap>
      <Box>
        <Title order={2} size="h4" mb="xs">
          {nearest ? 'Nearest projects' : 'Projects on the map'}
        </Title>
        <List spacing="xs" listStyleType="none" p={0}>
          {projects.map((p) => (
            <List.Item key={p.id}>
              <Anchor component={Link} to={`/show-up/${p.id}`} fw={600}>
                {p.title}
              </Anchor>
              <Text span size="sm" c="dimmed">
                {' '}
                · {p.location}
                {p.distanceKm != null ? ` · ${p.distanceKm} km away` : ''} · {formatUsd(p.raisedAmount)} of{' '}
                {formatUsd(p.targetAmount)}
                {p.latitude == null ? ' · no map location' : ''}
              </Text>
            </List.Item>
          ))}
        </List>
      </Box>
    </Stack>
  );
}
