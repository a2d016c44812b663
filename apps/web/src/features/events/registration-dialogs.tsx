import { Button, Group, Modal, NumberInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { AnswerInput, type AnswerValue } from './answer-input';
import { money, type EventDetail, type Registration } from './event-words';

const refresh = (u: SaveUtils) => [
  u.calendar.registrations.invalidate(),
  u.calendar.get.invalidate(),
  u.calendar.list.invalidate(),
];
const answerKey = (questionId: number, attendeeId: number | null) => `${questionId}:${attendeeId ?? ''}`;

/** Edit a registration: the registrant, the attendees' names, every answer; approve one waiting. */
export function EditRegistrationDialog({
  event,
  registration: r,
  onClose,
}: {
  event: EventDetail;
  registration: Registration;
  onClose: () => void;
}) {
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: r.name,
      email: r.email,
      phone: r.phone ?? '',
      attendees: r.attendees.map((a) => ({ id: a.id, name: a.name })),
    },
  });
  const [answers, setAnswers] = useState<Record<string, AnswerValue | undefined>>(() =>
    Object.fromEntries(r.answers.map((a) => [answerKey(a.questionId, a.attendeeId), a.value])),
  );
  const save = useSave(trpc.registrations.update, {
    success: 'Registration saved',
    errorTitle: 'Failed to save registration',
    form,
    invalidate: refresh,
    onSuccess: onClose,
  });
  const submit = form.onSubmit((v) => {
    const changed = Object.entries(answers).flatMap(([key, value]) => {
      const [q, a] = key.split(':');
      return value === undefined ? [] : [{ questionId: Number(q), attendeeId: a ? Number(a) : undefined, value }];
    });
    save.mutate({ id: r.id, ...v, phone: v.phone || null, answers: changed });
  });
  const perRegistration = event.questions.filter((q) => q.scope === 'registration');
  const perAttendee = event.questions.filter((q) => q.scope === 'attendee');
  const setAnswer = (key: string) => (v: AnswerValue | undefined) => setAnswers((old) => ({ ...old, [key]: v }));

  return (
    <Modal opened onClose={onClose} title={`Edit ${r.name}'s registration`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput label="Email" required type="email" {...form.getInputProps('email')} />
          <TextInput label="Phone" {...form.getInputProps('phone')} />
          {perRegistration.map((q) => (
            <AnswerInput
              key={q.id}
              question={q}
              label={q.label}
              value={answers[answerKey(q.id, null)]}
              onChange={setAnswer(answerKey(q.id, null))}
            />
          ))}
          {r.attendees.map((a, i) => (
            <Stack key={a.id} gap="xs">
              <Title order={3} size="h5">
                Attendee {i + 1} ({a.ticketTypeName})
              </Title>
              <TextInput label="Attendee name" required {...form.getInputProps(`attendees.${i}.name`)} />
              {perAttendee.map((q) => (
                <AnswerInput
                  key={q.id}
                  question={q}
                  label={q.label}
                  value={answers[answerKey(q.id, a.id)]}
                  onChange={setAnswer(answerKey(q.id, a.id))}
                />
              ))}
            </Stack>
          ))}
          <Group justify="flex-end" mt="sm">
            {r.status === 'pending_approval' ? (
              <>
                <Button color="red" variant="light" onClick={() => save.mutate({ id: r.id, status: 'declined' })}>
                  Decline
                </Button>
                <Button variant="light" onClick={() => save.mutate({ id: r.id, status: 'confirmed' })}>
                  Approve
                </Button>
              </>
            ) : null}
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save registration
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Cancel a registration, refunding all it paid, part of it, or nothing: the confirmation says which. */
export function CancelRegistrationDialog({
  event,
  registration: r,
  onClose,
}: {
  event: EventDetail;
  registration: Registration;
  onClose: () => void;
}) {
  const paid = r.paymentStatus === 'completed' ? r.totalCents - r.refundedCents - r.refundDueCents : 0;
  const [refund, setRefund] = useState<'full' | 'part' | 'none'>(
    paid > 0 && event.refundPolicy === 'full' ? 'full' : 'none',
  );
  const [part, setPart] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);
  const cancel = useSave(trpc.registrations.cancel, {
    success: (x) => [
      'Registration cancelled',
      x.refundDueCents + x.refundedCents > 0
        ? `${money(x.refundDueCents + x.refundedCents)} is refunded to ${x.name}'s card.`
        : `${x.name} is told; nothing is refunded.`,
    ],
    errorTitle: 'Failed to cancel registration',
    form: { setFieldError: (path, message) => path === 'refundCents' && setError(message) },
    invalidate: refresh,
    onSuccess: onClose,
  });
  const refundCents = refund === 'full' ? paid : refund === 'none' ? 0 : Math.round(Number(part || 0) * 100);
  const confirm = () => {
    if (refund === 'part' && (!part || refundCents <= 0)) return setError('Enter the amount to refund');
    setError(null);
    cancel.mutate({ id: r.id, refundCents });
  };

  return (
    <Modal opened onClose={onClose} title={`Cancel ${r.name}'s registration?`}>
      <Stack gap="sm">
        <Text size="sm">
          {r.seats === 1 ? 'Their seat goes' : `Their ${r.seats} seats go`} to the waitlist and {r.name} is emailed.
          {paid > 0 ? ` They paid ${money(paid)}.` : ''}
        </Text>
        {paid > 0 ? (
          <Radio.Group label="Refund" value={refund} onChange={(v) => setRefund(v)}>
            <Stack gap={6} mt="xs">
              <Radio value="full" label={`Full refund (${money(paid)})`} />
              <Radio value="part" label="Part of it" />
              <Radio value="none" label="No refund" />
            </Stack>
          </Radio.Group>
        ) : null}
        {refund === 'part' ? (
          <NumberInput
            label="Amount to refund"
            prefix="$"
            decimalScale={2}
            min={0}
            max={paid / 100}
            value={part}
            onChange={setPart}
            error={error}
          />
        ) : error ? (
          <Text c="red" size="sm">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Keep registration
          </Button>
          <Button color="red" onClick={confirm} loading={cancel.isPending}>
            {refundCents > 0 ? `Cancel and refund ${money(refundCents)}` : 'Cancel registration'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
