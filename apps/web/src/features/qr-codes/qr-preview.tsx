import { Box, Center, Image, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { checkQrColours } from '@lampstand/api/shared/qr-codes';
import type { QrCode, Values } from './qr-form-values';

export const hex = (v: string) => v.replace(/^#/, '');

/** What the preview encodes: the short link (marked as a scan) or the URL as typed. */
export function previewData(v: Values, code?: QrCode): string {
  if (v.isShortUrl) return code?.shortUrl ? `${code.shortUrl}?src=qr` : `${window.location.origin}/s/xxxxxxx?src=qr`;
  return v.url.trim() || window.location.origin;
}

export function previewUrl(v: Values, code?: QrCode): string {
  const p = new URLSearchParams({
    data: previewData(v, code),
    foregroundColor: hex(v.foregroundColor),
    backgroundColor: hex(v.backgroundColor),
    size: String(v.size),
    errorCorrection: v.errorCorrection,
    margin: String(v.margin),
  });
  if (v.cornerSquareColor) p.set('cornerSquareColor', hex(v.cornerSquareColor));
  if (v.cornerDotColor) p.set('cornerDotColor', hex(v.cornerDotColor));
  if (v.logoUpload?.id) p.set('logoUploadId', String(v.logoUpload.id));
  else if (v.logoUrl.trim()) p.set('logoUrl', v.logoUrl.trim());
  if (v.lightOnDarkConfirmed) p.set('lightOnDarkConfirmed', 'true');
  return `/api/qr-codes/preview?${p.toString()}`;
}

/** The live preview: follows every control (debounced), shows the server's reason when it cannot draw. */
export function Preview({ values, code }: { values: Values; code?: QrCode }) {
  const [debounced] = useDebouncedValue(values, 250);
  const colours = checkQrColours({
    ...debounced,
    cornerSquareColor: debounced.cornerSquareColor || null,
    cornerDotColor: debounced.cornerDotColor || null,
  });
  const src = previewUrl(debounced, code);
  const [state, setState] = useState<{ src: string; status: 'loading' | 'ok' | 'error'; message?: string }>({
    src,
    status: 'loading',
  });
  // A new preview address starts loading again (state adjusted while rendering, not in an effect).
  if (state.src !== src) setState({ src, status: 'loading' });
  const onError = async () => {
    let message = 'The preview could not be drawn.';
    try {
      const res = await fetch(src, { credentials: 'same-origin' });
      const body = (await res.json()) as { message?: string };
      if (body.message) message = body.message;
    } catch {
      // keep the general message
    }
    setState((s) => (s.src === src ? { src, status: 'error', message } : s));
  };
  const blocked = colours && !colours.needsConfirmation ? colours.message : null;
  return (
    <Stack gap="xs" align="center">
      <Text fw={600} size="sm" id="qr-preview-label">
        Preview
      </Text>
      <Box
        w="100%"
        maw={280}
        style={{ aspectRatio: '1 / 1', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
        p={4}
      >
        {blocked ? (
          <Center h="100%">
            <Text size="sm" c="red.8" ta="center" px="sm">
              {blocked}
            </Text>
          </Center>
        ) : state.status === 'error' ? (
          <Center h="100%">
            <Text size="sm" c="red.8" ta="center" px="sm" role="alert">
              {state.message}
            </Text>
          </Center>
        ) : (
          <Box pos="relative" h="100%">
            <Image
              src={src}
              alt="QR code preview"
              data-testid="qr-preview"
              fit="contain"
              h="100%"
              w="100%"
              onLoad={() => setState((s) => (s.src === src ? { src, status: 'ok' } : s))}
              onError={() => void onError()}
            />
            {state.status === 'loading' ? (
              <Center pos="absolute" inset={0}>
                <Loader size="sm" role="status" aria-label="Drawing the preview" />
              </Center>
            ) : null}
          </Box>
        )}
      </Box>
      <Text size="xs" c="dimmed" ta="center">
        {values.size} × {values.size} px
        {values.logoUrl || values.logoUpload ? ' · error correction H (30%) with a logo' : ''}
      </Text>
    </Stack>
  );
}
