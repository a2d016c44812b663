import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { timeZoneLabel } from '../lib/time-zone';

/** Every IANA zone the browser knows (plus UTC and the current one), labelled with its abbreviation. */
function timeZoneOptions(current: string): { value: string; label: string }[] {
  const zones = new Set(['UTC', ...Intl.supportedValuesOf('timeZone'), current]);
  return [...zones].map((z) => ({ value: z, label: timeZoneLabel(z) }));
}

/** The church's time zone, searchable (registration and Settings): pass the form's input props. */
export function TimeZoneSelect(props: Omit<SelectProps, 'data' | 'label'>) {
  const value = typeof props.value === 'string' ? props.value : 'UTC';
  const zones = useMemo(() => timeZoneOptions(value), [value]);
  return (
    <Select
      label="Time zone"
      description="Campaign times are entered and shown in this time zone."
      searchable
      allowDeselect={false}
      data={zones}
      {...props}
    />
  );
}
