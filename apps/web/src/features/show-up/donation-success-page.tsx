import { Alert, Anchor, Button, Center, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconReceipt } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { formatDate, formatUsd } from '../../ui/format';

/** The thank-you page (also Stripe's return address after a redirecting payment method). */
export function DonationSuccessPage() {
  const [params] = useSearchParams();
  const paymentIntent = params.get('payment_intent');
  const projectId = params.get('project_id');
  const valid = !!paymentIntent && /^pi_[A-Za-z0-9_]{1,200}$/.test(paymentIntent);
  const donation = trpc.showUp.donationByPayment.useQuery(
    { paymentIntent: paymentIntent ?? '' },
    { enabled: valid, staleTime: 0 },
  );
  // The webhook may land a moment after the redirect: look again until the gift is complete.
  const pending = donation.data?.status === 'pending';
  const { refetch } = donation;
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => void refetch(), 2000);
    return () => clearInterval(t);
  }, [pending, refetch]);

  if (!paymentIntent && !projectId) return <Navigate to="/show-up" replace />;
  const backToProject = donation.data?.projectId ?? (projectId && /^\d+$/.test(projectId) ? Number(projectId) : null);

  return (
    <Center py="xl">
      <Paper withBorder p="xl" radius="md" maw={520} w="100%">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" color="green" variant="light">
            <IconCircleCheck size={36} />
          </ThemeIcon>
          <Title order={1} size="h2">
            Thank you for your donation!
          </Title>
          {!valid || donation.isError ? (
            <Alert color="orange" title="Donation details unavailable" ta="left" w="100%">
              We could not find the details of this donation. If you were charged, your receipt will arrive by email.
            </Alert>
          ) : donation.isLoading || !donation.data ? (
            <Stack w="100%" aria-busy="true" aria-label="Loading donation">
              <Skeleton height={36} />
              <Skeleton height={18} />
            </Stack>
          ) : (
            <>
              <Text fz={32} fw={700}>
                {formatUsd(donation.data.amount)}
              </Text>
              <Text c="dimmed">
                to <strong>{donation.data.projectTitle}</strong> on {formatDate(donation.data.createdAt)}
              </Text>
              <Text>
                {donation.data.isAnonymous ? 'Donation made anonymously' : `From ${donation.data.donorName ?? ''}`}
              </Text>
              {donation.data.status === 'pending' ? (
                <Text size="sm" c="dimmed">
                  Your payment is being confirmed...
                </Text>
              ) : null}
              {donation.data.receiptUrl ? (
                <Anchor href={donation.data.receiptUrl} target="_blank" rel="noopener noreferrer">
                  <Group gap={4} component="span">
                    <IconReceipt size={18} aria-hidden /> View Receipt
                  </Group>
                </Anchor>
              ) : null}
            </>
          )}
          <Group mt="md" justify="center">
            {backToProject ? (
              <Button component={Link} to={`/show-up/${backToProject}`}>
                View Project
              </Button>
            ) : null}
            <Button component={Link} to="/show-up" variant="default" leftSection={<IconArrowLeft size={18} />}>
              Back to Projects
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
