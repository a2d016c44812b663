import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe as StripeJs } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useState } from 'react';
import { type Project } from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { showFailure, useSave } from '../../lib/use-save';
import { formatUsd } from '../../ui/format';
import { notifySuccess } from '../../ui/notify';

export type Prepared = {
  paymentIntentId: string;
  clientSecret: string;
  amount: number;
  mode: 'stripe' | 'demo' | 'disabled';
};

export const stripeByKey = new Map<string, Promise<StripeJs | null>>();

export function stripeFor(key: string) {
  if (!stripeByKey.has(key)) stripeByKey.set(key, loadStripe(key));
  return stripeByKey.get(key)!;
}

export function useAfterSuccess(project: Project, onPaid: (paymentIntentId: string) => void) {
  const utils = trpc.useUtils();
  return async (paymentIntentId: string) => {
    notifySuccess('Donation Successful', 'Thank you for your generous support!');
    onPaid(paymentIntentId);
    await Promise.all([
      utils.showUp.get.invalidate({ id: project.id }),
      utils.showUp.supporters.invalidate({ id: project.id }),
      utils.showUp.list.invalidate(),
    ]);
  };
}

/** Stripe's Payment Element; confirms without leaving the page when the card allows it. */
export function StripePayment({
  project,
  prepared,
  onPaid,
}: {
  project: Project;
  prepared: Prepared;
  onPaid: (pi: string) => void;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const done = useAfterSuccess(project, onPaid);
  const pay = async () => {
    if (!stripe || !elements) return;
    setBusy(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: {
          return_url: `${window.location.origin}/show-up/donation-success?project_id=${project.id}`,
        },
        redirect: 'if_required',
      });
      if (error) showFailure({ errorTitle: 'Payment Failed' }, error.message ?? 'The payment did not go through.');
      else if (paymentIntent?.status === 'succeeded') await done(paymentIntent.id);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <PaymentElement />
      <Button onClick={() => void pay()} disabled={!stripe || busy} size="md">
        {busy ? 'Processing...' : `Donate ${formatUsd(prepared.amount)}`}
      </Button>
    </Stack>
  );
}

/** No Stripe keys on this (non-production) machine: a clearly labelled demo that charges nothing. */
export function DemoPayment({
  project,
  prepared,
  onPaid,
}: {
  project: Project;
  prepared: Prepared;
  onPaid: (pi: string) => void;
}) {
  const done = useAfterSuccess(project, onPaid);
  const complete = useSave(trpc.showUp.completeDemoPayment, {
    errorTitle: 'Payment Failed',
    onSuccess: () => done(prepared.paymentIntentId),
  });
  return (
    <Paper withBorder p="md" bg="yellow.0">
      <Stack gap="sm">
        <Group gap="xs">
          <IconFlask size={20} aria-hidden />
          <Title order={3} size="h5">
            Demo mode — no card is charged
          </Title>
        </Group>
        <Text size="sm">
          This server has no card payment keys, so this gift is completed as a demonstration through the same steps a
          real payment takes. Nothing is charged.
        </Text>
        <Button
          size="md"
          onClick={() =>
            complete.mutate({ paymentIntent: prepared.paymentIntentId, clientSecret: prepared.clientSecret })
          }
          disabled={complete.isPending}
        >
          {complete.isPending ? 'Processing...' : `Donate ${formatUsd(prepared.amount)} (demo)`}
        </Button>
      </Stack>
    </Paper>
  );
}
