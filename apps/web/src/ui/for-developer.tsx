import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The technical name behind plain words ('STRIPE_SECRET_KEY', 'contact.created'), folded away under
 * 'For your developer': the church reads what it means; whoever runs its server or scripts opens it.
 */
export function ForDeveloper({ children, label = 'For your developer' }: { children: ReactNode; label?: string }) {
  return (
    <Box component="details" mt={6} fz="sm">
      <Text component="summary" size="sm" c="dimmed" style={{ cursor: 'pointer' }}>
        {label}
      </Text>
      <Box mt={4} c="gray.8" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}
