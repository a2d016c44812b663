import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { TEMPLATE_TYPES, type TemplateTypeValue } from '@lampstand/api/schemas/templates';

/** Templates grouped under a heading per type (Email, SMS, Print, Landing Page), as cards; a line when a type has none. */
export function TemplatesByType<T extends { id: number; type: string }>({
  templates,
  empty,
  card,
}: {
  templates: T[];
  empty: (type: { value: TemplateTypeValue; label: string }) => string;
  card: (template: T) => ReactNode;
}) {
  return (
    <Stack gap="xl">
      {TEMPLATE_TYPES.map((type) => {
        const items = templates.filter((t) => t.type === type.value);
        return (
          <section key={type.value} aria-label={`${type.label} templates`}>
            <Title order={4} mb="sm">
              {type.label}
            </Title>
            {items.length === 0 ? (
              <Text c="dimmed" size="sm">
                {empty(type)}
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{items.map(card)}</SimpleGrid>
            )}
          </section>
        );
      })}
    </Stack>
  );
}
