import { Button, Group, NumberInput, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { coordinateProps, type EventForm } from './event-form-values';

// Leaflet is loaded only when staff open the map (as Show Up's map view): the editor stays light.
const LocationPicker = lazy(() => import('./location-picker').then((m) => ({ default: m.LocationPicker })));

/**
 * The editor's optional map place: latitude and longitude (typed, or picked by clicking the map);
 * the public page then shows a map tile with a pin beside the map-search link.
 */
export function PlaceOnMap({ form }: { form: EventForm }) {
  const { latitude, longitude } = form.values;
  const [open, setOpen] = useState(latitude !== null);
  const config = trpc.showUp.config.useQuery({}, { staleTime: 5 * 60_000, enabled: open });
  const pick = (lat: number, lng: number) => form.setValues({ latitude: lat, longitude: lng });
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label="Latitude"
          description="Optional: shows a map on the event's page"
          {...coordinateProps(form, 'latitude')}
        />
        <NumberInput label="Longitude" description="Both, or neither" {...coordinateProps(form, 'longitude')} />
      </SimpleGrid>
      <Group gap="xs">
        {open ? null : (
          <Button variant="light" size="xs" onClick={() => setOpen(true)}>
            Pick on a map
          </Button>
        )}
        {latitude !== null || longitude !== null ? (
          <Button variant="subtle" size="xs" onClick={() => form.setValues({ latitude: null, longitude: null })}>
            Remove from the map
          </Button>
        ) : null}
      </Group>
      {open ? (
        <>
          <Text size="sm" c="dimmed">
            Click the map where the event is.
          </Text>
          <Suspense fallback={<Skeleton h={240} />}>
            <LocationPicker
              latitude={latitude}
              longitude={longitude}
              onPick={pick}
              tileUrl={config.data?.mapTileUrl}
              attribution={config.data?.mapAttribution}
            />
          </Suspense>
        </>
      ) : null}
    </>
  );
}
