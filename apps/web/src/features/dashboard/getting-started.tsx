import { Anchor, Badge, Button, Group, Paper, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { GettingStarted, GettingStartedStep } from '@lampstand/api/schemas/getting-started';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { statusColor } from '../../ui/status-color';

/** Each step in the church's words, with where to do it. */
const STEPS: Record<GettingStartedStep, { title: string; text: string; action: string; to: string }> = {
  profile: {
    title: 'Set up your church profile and handle',
    text: "Your church's own page, at an address you choose, with who you are and when you meet.",
    action: 'Set up your profile',
    to: '/settings/profile',
  },
  people: {
    title: 'Import or add your people',
    text: 'Bring in a spreadsheet of your people, or add them one by one.',
    action: 'Add people',
    to: '/contacts',
  },
  email: {
    title: 'Send email from your own domain',
    text: "Connect your church's domain, so your email comes from you and reaches inboxes.",
    action: 'Connect your domain',
    to: '/settings/sending',
  },
  campaign: {
    title: 'Make your first campaign',
    text: 'Write an email to your people: a welcome, a notice, an invitation.',
    action: 'New campaign',
    to: '/email-campaigns/new',
  },
  home: {
    title: 'Publish your church home',
    text: 'Publish a page for visitors: your church home shows it beside your service times.',
    action: 'Publish a page',
    to: '/landing-pages',
  },
};

/**
 * The dashboard's getting-started list for a new church: each step ticked by what the church did
 * (read on the server), a link to do the rest, and 'Hide this list' (kept for the church). It hides
 * itself once every step is done.
 */
export function GettingStartedChecklist({ data }: { data: GettingStarted }) {
  const utils = trpc.useUtils();
  const dismiss = useSave(trpc.dashboard.dismissGettingStarted, {
    success: ['Getting started hidden', 'Every step stays where it is in the menu and Settings.'],
    errorTitle: 'Failed to hide the list',
    onSuccess: (next) => utils.dashboard.gettingStarted.setData(undefined, next),
  });
  if (!data.show) return null;
  const done = data.steps.filter((s) => s.done).length;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="getting-started-title">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div>
          <Title order={2} size="h4" id="getting-started-title">
            Getting started
          </Title>
          <Text size="sm" c="dimmed">
            {done} of {data.steps.length} done. Each step ticks itself once it is done.
          </Text>
        </div>
        <Button variant="subtle" size="xs" loading={dismiss.isPending} onClick={() => dismiss.mutate()}>
          Hide this list
        </Button>
      </Group>
      <Progress
        value={(100 * done) / data.steps.length}
        color={statusColor('success')}
        mt="sm"
        mb="md"
        aria-label={`Getting started: ${done} of ${data.steps.length} done`}
      />
      <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {data.steps.map((s) => {
          const step = STEPS[s.key];
          return (
            <Group key={s.key} component="li" wrap="nowrap" align="flex-start" gap="sm">
              <ThemeIcon
                variant={s.done ? 'filled' : 'light'}
                color={statusColor(s.done ? 'success' : 'neutral')}
                radius="xl"
                size={28}
                aria-hidden
              >
                {s.done ? <IconCheck size={18} /> : <IconCircleDashed size={18} />}
              </ThemeIcon>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} size="sm">
                    {step.title}
                  </Text>
                  <Badge color={statusColor(s.done ? 'success' : 'neutral')} variant="light" size="sm">
                    {s.done ? 'Done' : 'To do'}
                  </Badge>
                </Group>
                {s.done ? null : (
                  <>
                    <Text size="sm" c="dimmed">
                      {step.text}
                    </Text>
                    <Anchor component={Link} to={step.to} size="sm" fw={500}>
                      {step.action}
                    </Anchor>
                  </>
                )}
              </Stack>
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
