import 'leaflet/dist/leaflet.css';
import { Alert, Box, Card } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { CircleMarker, MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';

/** Degrees to 6 places (about 10 cm), longitude wrapped into -180..180. */
const round = (n: number) => Number(n.toFixed(6));
const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

function Clicks({ onPick }: { onPick: (lat: number, lng: number) => void }) {
  useMapEvents({ click: (e) => onPick(round(e.latlng.lat), round(wrap(e.latlng.lng))) });
  return null;
}

/** Keeps the pin in view when the fields move it. */
function Follow({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.panTo([lat, lng]);
  }, [map, lat, lng]);
  return null;
}

/**
 * The event's place on a Leaflet map with tiles from MAP_TILE_URL (as Show Up's project map): a
 * click puts the pin there. The latitude and longitude fields beside it do the same by keyboard;
 * where tiles cannot load, the map says so and the fields still work.
 */
export function LocationPicker({
  latitude,
  longitude,
  onPick,
  tileUrl,
  attribution,
}: {
  latitude: number | null;
  longitude: number | null;
  onPick: (lat: number, lng: number) => void;
  tileUrl?: string;
  attribution?: string;
}) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const placed = latitude !== null && longitude !== null;
  return (
    <>
      {tilesFailed ? (
        <Alert color="orange" icon={<IconMapOff size={18} />} title="The map could not load">
          Map tiles cannot be reached from here. Type the latitude and longitude instead.
        </Alert>
      ) : null}
      <Card withBorder p={0} style={{ overflow: 'hidden' }}>
        <Box h={{ base: 240, sm: 300 }} role="region" aria-label="Map: click to place the event">
          {tileUrl ? (
            <MapContainer
              center={placed ? [latitude, longitude] : [20, 0]}
              zoom={placed ? 15 : 2}
              style={{ height: '100%', width: '100%' }}
              scrollWheelZoom={false}
            >
              <TileLayer
                url={tileUrl}
                attribution={attribution}
                eventHandlers={{ tileerror: () => setTilesFailed(true) }}
              />
              <Clicks onPick={onPick} />
              {placed ? <Follow lat={latitude} lng={longitude} /> : null}
              {placed ? (
                <CircleMarker
                  center={[latitude, longitude]}
                  radius={10}
                  pathOptions={{ color: '#364fc7', fillColor: '#4c6ef5', fillOpacity: 0.85, weight: 2 }}
                />
              ) : null}
            </MapContainer>
          ) : null}
        </Box>
      </Card>
    </>
  );
}
