import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { PageHeader } from '../../ui/page-header';

export function ComingSoonPage({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Paper withBorder p="xl">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconHourglass size={28} />
          </ThemeIcon>
          <Title order={3}>Coming soon</Title>
          <Text c="dimmed" maw={460}>
            {title} is coming soon. We are building it now and it will appear here when it is ready.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
