import 'leaflet/dist/leaflet.css';
import { Alert, Box, Card } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { MapContainer, TileLayer, type MapContainerProps } from 'react-leaflet';

/**
 * A Leaflet map in a card with tiles from MAP_TILE_URL (Show Up's project map, an event's place).
 * Import it lazily: Leaflet stays out of the first load. Where tiles cannot load it says so
 * (`failedText`: what still works), and the screen around it goes on working.
 */
export function TiledMap({
  label,
  tileUrl,
  attribution,
  failedText,
  height,
  view,
  children,
}: {
  label: string;
  tileUrl?: string;
  attribution?: string;
  failedText: string;
  height: { base: number; sm: number };
  view: Pick<MapContainerProps, 'center' | 'zoom' | 'bounds' | 'boundsOptions'>;
  children?: ReactNode;
}) {
  const [tilesFailed, setTilesFailed] = useState(false);
  return (
    <>
      {tilesFailed ? (
        <Alert color="orange" icon={<IconMapOff size={18} />} title="The map could not load">
          {failedText}
        </Alert>
      ) : null}
      <Card withBorder p={0} style={{ overflow: 'hidden' }}>
        <Box h={height} aria-label={label} role="region">
          {tileUrl ? (
            <MapContainer {...view} style={{ height: '100%', width: '100%' }} scrollWheelZoom={false}>
              <TileLayer
                url={tileUrl}
                attribution={attribution}
                eventHandlers={{ tileerror: () => setTilesFailed(true) }}
              />
              {children}
            </MapContainer>
          ) : null}
        </Box>
      </Card>
    </>
  );
}
