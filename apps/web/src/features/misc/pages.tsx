import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
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

/** A route a later release fills in: its title and one line, no invented data. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return <PageHeader title={title} description={description} />;
}

export function NotFoundPage() {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder p="xl" maw={480} w="100%">
        <Stack gap="sm">
          <Stack gap="xs" align="flex-start">
            <ThemeIcon color="red" variant="light" size={40} radius="xl">
              <IconAlertTriangle size={22} />
            </ThemeIcon>
            <Title order={1} size="h2">
              404 Page Not Found
            </Title>
          </Stack>
          <Text c="dimmed">Did you forget to add the page to the router?</Text>
          <Button component={Link} to="/" variant="light" w="fit-content">
            Go to Dashboard
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
