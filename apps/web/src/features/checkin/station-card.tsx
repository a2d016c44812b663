import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useState, type FormEvent } from 'react';

// The camera and the QR decoder load when a card is first scanned: most families type their digits.
const CameraScanner = lazy(() => import('../../ui/camera-scanner').then((m) => ({ default: m.CameraScanner })));

/** A card's token from what was scanned or typed: the token itself, or a link carrying it as `card`. */
export function cardToken(text: string): string {
  const t = text.trim();
  try {
    const url = new URL(t);
    return url.searchParams.get('card') ?? t;
  } catch {
    return t;
  }
}

/** 'Scan card': the camera reads a family's QR card; its code can be typed or pasted too. */
export function ScanCard({ onCard, onClose }: { onCard: (token: string) => void; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const [camera, setCamera] = useState(true);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) onCard(cardToken(typed));
  };
  return (
    <Paper withBorder p="md">
      <Stack>
        <Text fw={700} size="lg">
          Scan your family card
        </Text>
        {camera ? (
          <Suspense fallback={<Text c="dimmed">Opening the camera…</Text>}>
            <CameraScanner
              onRead={(t) => onCard(cardToken(t))}
              label="Camera: hold the family card's QR code in view"
              otherWay="type the code printed under the QR code"
            />
          </Suspense>
        ) : null}
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              size="lg"
              label="Card code"
              autoComplete="off"
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
            />
            <Button type="submit" size="lg">
              Find card
            </Button>
          </Group>
        </form>
        <Group grow>
          <Button variant="default" size="lg" onClick={() => setCamera(!camera)}>
            {camera ? 'Stop camera' : 'Use the camera'}
          </Button>
          <Button variant="subtle" size="lg" onClick={onClose}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
