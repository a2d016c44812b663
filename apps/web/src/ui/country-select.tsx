import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { countryOptions } from '@lampstand/api/shared/locale';

/**
 * The church's country, searchable, every country by name with its calling code (registration and
 * Settings): pass the form's input props.
 */
export function CountrySelect(props: Omit<SelectProps, 'data' | 'label'>) {
  const data = useMemo(() => countryOptions(), []);
  return (
    <Select
      label="Country"
      description="Phones without a country code are read in it; dates and times are written as there."
      searchable
      allowDeselect={false}
      data={data}
      {...props}
    />
  );
}
