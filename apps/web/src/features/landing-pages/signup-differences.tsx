import { Alert, Button, Group, Text } from '@mantine/core';
import type { RouterOutputs } from '@lampstand/api';
import { SIGNUP_FIELD_LABELS } from '@lampstand/api/schemas/landing-pages';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';

export type RecentSignup = RouterOutputs['landingPages']['stats']['recentSignups'][number];

/**
 * A sign-up never overwrites a contact's phone, city or postal code: where it brought another one,
 * staff see it here and may take it ('Use it', after a confirmation naming both values).
 */
export function SignupDifferences({ signup }: { signup: RecentSignup }) {
  const use = useSave(trpc.landingPages.applySignupValue, {
    success: (_data, input) => [
      'Contact updated',
      `${signup.name}'s ${SIGNUP_FIELD_LABELS[input.field]} is now ${signup.differences.find((x) => x.field === input.field)?.value ?? ''}.`,
    ],
    errorTitle: 'Failed to update the contact',
    invalidate: (utils) => utils.landingPages.stats.invalidate(),
  });
  return (
    <>
      {signup.differences.map((d) => {
        const label = SIGNUP_FIELD_LABELS[d.field];
        return (
          <Alert key={d.field} color="yellow" variant="light" p="xs" w="100%">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere', flex: '1 1 220px' }}>
                Signed up with a different {label}: <b>{d.value}</b> — use it?{' '}
                <Text span size="sm" c="dimmed">
                  (the contact has {d.current}
                  {signup.confirmed ? '' : '; this sign-up is not confirmed'})
                </Text>
              </Text>
              <Button
                size="xs"
                variant="light"
                loading={use.isPending && use.variables?.id === signup.id && use.variables.field === d.field}
                aria-label={`Use it: ${label} ${d.value} for ${signup.name}`}
                onClick={() =>
                  confirmDestructive({
                    title: `Use this ${label}?`,
                    text: `${signup.name}'s ${label} ${d.current} will be replaced with ${d.value}.${
                      d.field === 'phone' ? ' Texts will go to the new number.' : ''
                    }`,
                    confirm: 'Use it',
                    onConfirm: () => use.mutate({ id: signup.id, field: d.field }),
                  })
                }
              >
                Use it
              </Button>
            </Group>
          </Alert>
        );
      })}
    </>
  );
}
