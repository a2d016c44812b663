import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { Elements } from '@stripe/react-stripe-js';
import { useRef, useState } from 'react';
import {
  DEFAULT_DONATION,
  donationFormSchema,
  QUICK_AMOUNTS,
  type DonationFormValues,
  type Project,
} from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { rememberedSource } from './source';
import { type Prepared, stripeFor, StripePayment, DemoPayment } from './donate-payment';

const validateDonation = schemaResolver(donationFormSchema, { sync: true });

/** Donate Now: the amount and the donor, then the card (or the demo form). */
export function DonateDialog({
  project,
  onClose,
  onPaid,
}: {
  project: Project;
  onClose: () => void;
  onPaid: (paymentIntentId: string) => void;
}) {
  // The cached session (never a new observer: for a visitor that would refetch the 401 and reload the page).
  const user = trpc.useUtils().auth.me.getData() ?? null;
  const config = trpc.showUp.config.useQuery({ projectId: project.id });
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  // One key per amount tried: a retry after a lost answer gets the same payment, not a second one.
  const attempt = useRef<{ amount: number; key: string } | null>(null);
  const form = useForm<DonationFormValues>({
    mode: 'controlled',
    initialValues: {
      amount: DEFAULT_DONATION,
      donorName: user?.churchName ?? '',
      donorEmail: user?.email ?? '',
      message: '',
      isAnonymous: false,
      showMessage: true,
    },
    // Hidden when anonymous, so never checked then (and never sent).
    validate: (v) => validateDonation(v.isAnonymous ? { ...v, donorName: '', donorEmail: '' } : v),
  });
  const prepare = useSave(trpc.showUp.prepareDonation, {
    errorTitle: 'Error preparing payment',
    errorText: 'There was a problem processing your donation request. Please try again.',
    onSuccess: (data) => setPrepared(data),
  });
  const submit = form.onSubmit((values) => {
    const parsed = donationFormSchema.parse(values.isAnonymous ? { ...values, donorName: '', donorEmail: '' } : values);
    if (attempt.current?.amount !== parsed.amount)
      attempt.current = { amount: parsed.amount, key: crypto.randomUUID() };
    prepare.mutate({
      projectId: project.id,
      amount: parsed.amount,
      ...(parsed.isAnonymous ? {} : { donorName: parsed.donorName, donorEmail: parsed.donorEmail }),
      message: parsed.message,
      isAnonymous: parsed.isAnonymous,
      showMessage: parsed.showMessage,
      source: rememberedSource(),
      idempotencyKey: attempt.current.key,
    });
  });
  const amount = form.values.amount;
  const publishableKey = config.data?.giving.publishableKey;

  return (
    <Modal opened onClose={onClose} title={<Text fw={700}>{project.title}</Text>} size="lg">
      {!prepared ? (
        <form onSubmit={submit} noValidate>
          <Stack>
            <div role="group" aria-labelledby="quick-amounts-label">
              <Text id="quick-amounts-label" size="sm" fw={500} mb={6}>
                Choose an amount
              </Text>
              <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="xs">
                {QUICK_AMOUNTS.map((a) => (
                  <Button
                    key={a}
                    variant={amount === a ? 'filled' : 'default'}
                    aria-pressed={amount === a}
                    onClick={() => form.setFieldValue('amount', a)}
                  >
                    ${a}
                  </Button>
                ))}
              </SimpleGrid>
            </div>
            <NumberInput
              label="Amount (USD)"
              prefix="$"
              decimalScale={2}
              min={0}
              thousandSeparator=","
              withAsterisk
              {...form.getInputProps('amount')}
              onChange={(v) => form.setFieldValue('amount', v === '' ? '' : Number(v))}
            />
            <Checkbox
              label="Give anonymously"
              {...form.getInputProps('isAnonymous', { type: 'checkbox' })}
              onChange={(e) => {
                // An anonymous donor's message stays private unless they tick the box themselves.
                form.setFieldValue('isAnonymous', e.currentTarget.checked);
                form.setFieldValue('showMessage', !e.currentTarget.checked);
              }}
            />
            {!form.values.isAnonymous ? (
              <>
                <TextInput label="Name" autoComplete="name" {...form.getInputProps('donorName')} />
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="email"
                  description="We send your receipt here."
                  {...form.getInputProps('donorEmail')}
                />
              </>
            ) : null}
            <Textarea label="Message" autosize minRows={2} maxRows={5} {...form.getInputProps('message')} />
            <Checkbox
              label="Show my message on the project page"
              description="Church staff always see it."
              {...form.getInputProps('showMessage', { type: 'checkbox' })}
            />
            <Group gap={6} c="dimmed" wrap="nowrap" align="flex-start">
              <IconLock size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
              <Text size="sm" c="dimmed">
                Payments are processed securely by our card payment provider, Stripe. Your card details never touch our
                servers.
              </Text>
            </Group>
            <Button type="submit" size="md" loading={prepare.isPending}>
              Continue to payment
            </Button>
          </Stack>
        </form>
      ) : prepared.mode === 'stripe' && publishableKey ? (
        <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret: prepared.clientSecret }}>
          <StripePayment project={project} prepared={prepared} onPaid={onPaid} />
        </Elements>
      ) : prepared.mode === 'demo' ? (
        <DemoPayment project={project} prepared={prepared} onPaid={onPaid} />
      ) : (
        <Alert color="red" title="Online giving is not available">
          {config.data?.giving.message ?? 'Please try again later.'}
        </Alert>
      )}
    </Modal>
  );
}
