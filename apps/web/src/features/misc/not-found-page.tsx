import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

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
