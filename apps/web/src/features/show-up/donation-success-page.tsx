import { Anchor, Button, Center, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconInfoCircle, IconReceipt } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { formatDate, formatUsd } from '../../ui/format';

/**
 * The heading says only what is known: thanks for a gift that is made or being
 * confirmed, what happened to a failed, refunded or disputed one, and no thanks for a payment not found.
 */
const HEADINGS = {
  unknown: { title: 'Donation details unavailable', good: false },
  loading: { title: 'Looking up your donation', good: false },
  pending: { title: 'Thank you for your donation!', good: true },
  completed: { title: 'Thank you for your donation!', good: true },
  failed: { title: 'Your donation did not go through', good: false },
  refunded: { title: 'This donation was refunded', good: false },
  disputed: { title: 'This donation is disputed with the bank', good: false },
} as const;

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

  const status = !valid || donation.isError ? 'unknown' : (donation.data?.status ?? 'loading');
  const { title, good } = HEADINGS[status];

  return (
    <Center py="xl">
      <Paper withBorder p="xl" radius="md" maw={520} w="100%">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" color={good ? 'green' : 'gray'} variant="light">
            {good ? <IconCircleCheck size={36} /> : <IconInfoCircle size={36} />}
          </ThemeIcon>
          <Title order={1} size="h2">
            {title}
          </Title>
          {status === 'unknown' ? (
            <Text>
              We could not find the details of this donation. If you were charged, your receipt will arrive by email.
            </Text>
          ) : status === 'loading' || !donation.data ? (
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
              {status === 'pending' ? (
                <Text size="sm" c="dimmed">
                  Your payment is being confirmed...
                </Text>
              ) : status === 'failed' ? (
                <Text size="sm">The payment did not go through, so no gift was made.</Text>
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
