import { Alert, Box, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { OfflineAction } from './station-offline';
import { waitingWords } from './station-sync';

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

/** What waits to be sent from this station, and what the server refused of it when it was sent. */
export function OfflineNotices({ queue, refused }: { queue: OfflineAction[]; refused: string[] }) {
  return (
    <>
      {queue.length > 0 ? (
        <Alert color="yellow" mb="md" title="Working offline">
          {waitingWords(queue)} saved on this station and sent when the network returns.
        </Alert>
      ) : null}
      {refused.length > 0 ? (
        <Alert color="red" mb="md" title="Some of what this station did offline was refused">
          {refused.join(' ')}
        </Alert>
      ) : null}
    </>
  );
}
