import { Drawer, List, Stack, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router-dom';
import { guideFor } from './guides';

/** The guide to the current screen, in a sheet on the right: what it is for and its common tasks. */
export function HelpDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const location = useLocation();
  const guide = guideFor(location);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title={guide ? `Help: ${guide.title}` : 'Help'}
    >
      {guide ? (
        <Stack gap="md">
          {guide.about.map((p) => (
            <Text key={p} size="sm">
              {p}
            </Text>
          ))}
          <Title order={3} size="h5">
            Common tasks
          </Title>
          <List spacing="sm" size="sm" listStyleType="none" p={0}>
            {guide.tasks.map((t) => (
              <List.Item key={t.title}>
                <Text size="sm" fw={600}>
                  {t.title}
                </Text>
                <Text size="sm">{t.how}</Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : (
        <Text size="sm">
          There is no guide for this screen yet. Each area in the sidebar has one: open it and choose Help again.
        </Text>
      )}
    </Drawer>
  );
}
