import { Box, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of every station screen: the church's name and the station's, big and plain. */
export function StationFrame({
  title,
  sub,
  children,
  wide,
}: {
  title: string;
  sub?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <Box mih="100vh" bg="gray.0" py="md">
      <Container size={wide ? 1100 : 560} px="sm">
        <Stack gap={2} mb="md">
          <Title order={1} size="h2">
            {title}
          </Title>
          {sub ? (
            <Text c="dimmed" size="sm">
              {sub}
            </Text>
          ) : null}
        </Stack>
        <main>{children}</main>
      </Container>
    </Box>
  );
}
