import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { httpStatus } from '../../lib/errors';
import { PageHeader } from '../../ui/page-header';

/** The plan page while the plan loads. */
export function PlanLoading() {
  return (
    <Stack>
      <Skeleton height={40} width="50%" />
      <Skeleton height={200} />
    </Stack>
  );
}

/** The plan page when the plan cannot be shown: not found (404), or another error with a retry. */
export function PlanLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const status = httpStatus(error);
  return (
    <Stack>
      <PageHeader title="Service Plan" />
      <Alert color="red" title={status === 404 ? 'Plan not found' : 'Error'}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {status === 404
              ? "This plan doesn't exist or you don't have permission to view it."
              : 'Failed to load service plans. Please try again.'}
          </Text>
          <Group gap="xs">
            {status !== 404 ? (
              <Button size="xs" variant="light" color="red" onClick={onRetry}>
                Retry
              </Button>
            ) : null}
            <Button size="xs" variant="default" component={Link} to="/service-planner">
              Back to Service Plans
            </Button>
          </Group>
        </Stack>
      </Alert>
    </Stack>
  );
}
