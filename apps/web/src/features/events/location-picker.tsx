import { useEffect } from 'react';
import { CircleMarker, useMap, useMapEvents } from 'react-leaflet';
import { TiledMap } from '../../ui/tiled-map';

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
 * The event's place on the map Show Up's projects use (TiledMap, tiles from MAP_TILE_URL): a click
 * puts the pin there. The latitude and longitude fields beside it do the same by keyboard, and
 * still work where tiles cannot load.
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
  const placed = latitude !== null && longitude !== null;
  return (
    <TiledMap
      label="Map: click to place the event"
      tileUrl={tileUrl}
      attribution={attribution}
      failedText="Map tiles cannot be reached from here. Type the latitude and longitude instead."
      height={{ base: 240, sm: 300 }}
      view={{ center: placed ? [latitude, longitude] : [20, 0], zoom: placed ? 15 : 2 }}
    >
      <Clicks onPick={onPick} />
      {placed ? <Follow lat={latitude} lng={longitude} /> : null}
      {placed ? (
        <CircleMarker
          center={[latitude, longitude]}
          radius={10}
          pathOptions={{ color: '#364fc7', fillColor: '#4c6ef5', fillOpacity: 0.85, weight: 2 }}
        />
      ) : null}
    </TiledMap>
  );
}
