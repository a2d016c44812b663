import { Select, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import type { QrDestinationSource } from '@lampstand/api/schemas/qr-codes';
import { trpc } from '../../lib/trpc';

/**
 * The church's own pages a code can point at, one group per source (its landing pages and Show Up
 * projects, with the public addresses the server knows); while loading, only the typed URL shows.
 */
export function useDestinationSources(): QrDestinationSource[] {
  return trpc.qrCodes.destinations.useQuery(undefined, { staleTime: 30_000 }).data ?? [];
}

/** Pick one of the church's pages, or type any URL; both fill the same `url` field. */
export function DestinationPicker({
  value,
  onChange,
  error,
  description,
}: {
  value: string;
  onChange: (url: string) => void;
  error?: ReactNode;
  description?: ReactNode;
}) {
  const sources = useDestinationSources().filter((s) => s.options.length > 0);
  const data = sources.map((s) => ({
    group: s.group,
    items: s.options.map((o) => ({ value: o.url, label: o.label })),
  }));
  const known = sources.some((s) => s.options.some((o) => o.url === value));
  return (
    <Stack gap="xs">
      {data.length > 0 ? (
        <Select
          label="Choose one of your pages"
          placeholder="Landing page or Show Up project"
          data={data}
          value={known ? value : null}
          onChange={(v) => v && onChange(v)}
          searchable
          clearable
        />
      ) : null}
      <TextInput
        label="URL"
        withAsterisk
        placeholder="https://"
        description={description}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
      />
    </Stack>
  );
}
