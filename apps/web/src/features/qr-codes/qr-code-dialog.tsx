import '@mantine/dates/styles.css';
import {
  Accordion,
  ActionIcon,
  Alert,
  Box,
  Button,
  Center,
  Checkbox,
  ColorInput,
  Grid,
  Group,
  Image,
  Loader,
  Modal,
  Select,
  Slider,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import type { RouterOutputs } from '@lampstand/api';
import {
  checkQrColours,
  createQrCodeSchema,
  QR_ERROR_CORRECTION,
  QR_ERROR_CORRECTION_LABELS,
  QR_MARGIN,
  QR_MAX_SCHEDULE,
  QR_SIZE,
  type QrErrorCorrectionLevel,
} from '@lampstand/api/schemas/qr-codes';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { ImageUpload, type UploadedImage } from '../../ui/image-upload';
import { DestinationPicker } from './destination-picker';
import classes from './qr-codes.module.css';

type QrCode = RouterOutputs['qrCodes']['list'][number];

interface ScheduleRow {
  url: string;
  startsAt: string | null;
  endsAt: string | null;
}

interface Values {
  name: string;
  url: string;
  isShortUrl: boolean;
  foregroundColor: string;
  backgroundColor: string;
  cornerSquareColor: string;
  cornerDotColor: string;
  size: number;
  errorCorrection: QrErrorCorrectionLevel;
  margin: number;
  logoUrl: string;
  logoUpload: UploadedImage | null;
  lightOnDarkConfirmed: boolean;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  schedule: ScheduleRow[];
}

const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const toIso = (v: string | null) => (v ? dayjs(v).toISOString() : null);

function toPayload({ logoUpload, ...v }: Values) {
  return {
    ...v,
    logoUploadId: logoUpload?.id ?? null,
    schedule: v.schedule.map((s) => ({ url: s.url, startsAt: toIso(s.startsAt), endsAt: toIso(s.endsAt) })),
  };
}

function initialValues(code?: QrCode): Values {
  return {
    name: code?.name ?? '',
    url: code?.url ?? '',
    isShortUrl: code?.isShortUrl ?? false,
    foregroundColor: code?.foregroundColor ?? '#000000',
    backgroundColor: code?.backgroundColor ?? '#FFFFFF',
    cornerSquareColor: code?.cornerSquareColor ?? '',
    cornerDotColor: code?.cornerDotColor ?? '',
    size: code?.size ?? QR_SIZE.default,
    errorCorrection: code?.errorCorrection ?? 'M',
    margin: code?.margin ?? QR_MARGIN.default,
    logoUrl: code?.logoUrl ?? '',
    logoUpload: code?.logoUpload ?? null,
    lightOnDarkConfirmed: code?.lightOnDarkConfirmed ?? false,
    utmSource: code?.utmSource ?? '',
    utmMedium: code?.utmMedium ?? '',
    utmCampaign: code?.utmCampaign ?? '',
    schedule: (code?.schedule ?? []).map((s) => ({
      url: s.url,
      startsAt: s.startsAt ? dayjs(s.startsAt).format(PICKER_FORMAT) : null,
      endsAt: s.endsAt ? dayjs(s.endsAt).format(PICKER_FORMAT) : null,
    })),
  };
}

const validatePayload = schemaResolver(createQrCodeSchema, { sync: true });
const hex = (v: string) => v.replace(/^#/, '');

/** Colours offered under each picker (dark ones for modules, light ones for the background). */
const QR_SWATCHES = ['#000000', '#1A1B1E', '#364FC7', '#2B8A3E', '#C92A2A', '#5F3DC4', '#FFFFFF', '#FFF9DB', '#E7F5FF'];

/**
 * A colour field as the spec stores it (hex): typed, picked from the swatches (buttons named by
 * their hex) or from the screen. Not Mantine's saturation/hue picker: ColorInput does not pass its
 * sliders' labels on, so screen readers would meet two unnamed sliders (axe: aria-input-field-name).
 */
const colourInputProps = (label: string) => ({
  label,
  format: 'hex' as const,
  withPicker: false,
  swatches: QR_SWATCHES,
  eyeDropperButtonProps: { 'aria-label': `Pick the ${label.toLowerCase()} from the screen` },
});

/** What the preview encodes: the short link (marked as a scan) or the URL as typed. */
function previewData(v: Values, code?: QrCode): string {
  if (v.isShortUrl) return code?.shortUrl ? `${code.shortUrl}?src=qr` : `${window.location.origin}/s/xxxxxxx?src=qr`;
  return v.url.trim() || window.location.origin;
}

function previewUrl(v: Values, code?: QrCode): string {
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
function Preview({ values, code }: { values: Values; code?: QrCode }) {
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

export function QrCodeDialog({ opened, code, onClose }: { opened: boolean; code?: QrCode; onClose: () => void }) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initialValues(code),
    validate: (v) => validatePayload(toPayload(v)),
  });
  const saved = { form, invalidate: (utils: SaveUtils) => utils.qrCodes.list.invalidate(), onSuccess: onClose };
  const create = useSave(trpc.qrCodes.create, {
    ...saved,
    success: 'QR code created successfully',
    errorTitle: 'Failed to create QR code',
  });
  const update = useSave(trpc.qrCodes.update, {
    ...saved,
    success: 'QR code updated successfully',
    errorTitle: 'Failed to update QR code',
  });
  const saving = create.isPending || update.isPending;
  const v = form.values;
  const colourProblem = useMemo(
    () =>
      checkQrColours({
        ...v,
        cornerSquareColor: v.cornerSquareColor || null,
        cornerDotColor: v.cornerDotColor || null,
      }),
    [v],
  );
  const submit = form.onSubmit((values) => {
    const payload = toPayload(values);
    if (code) update.mutate({ id: code.id, ...payload });
    else create.mutate(payload);
  });
  const requestClose = () => {
    if (!form.isDirty() || saving) return onClose();
    modals.openConfirmModal({
      title: 'Discard changes?',
      children: <Text size="sm">Your changes to this QR code have not been saved.</Text>,
      labels: { confirm: 'Discard', cancel: 'Keep editing' },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={requestClose}
      title={code ? 'Edit QR Code' : 'Create QR Code'}
      size="min(960px, 100vw)"
    >
      <form onSubmit={submit} noValidate>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, sm: 7 }}>
            <Stack>
              <TextInput label="Name" withAsterisk placeholder="Sunday bulletin" {...form.getInputProps('name')} />
              <DestinationPicker
                value={v.url}
                onChange={(url) => form.setFieldValue('url', url)}
                error={form.errors.url}
                description={
                  v.isShortUrl ? 'Where the short link goes when no scheduled destination applies' : undefined
                }
              />
              <Switch
                label="Use a short link"
                description="Scans go through a short link: you can change the destination after printing and see the scans."
                {...form.getInputProps('isShortUrl', { type: 'checkbox' })}
              />
              <div>
                <Text size="sm" fw={500} id="qr-size-label">
                  Size: {v.size} px
                </Text>
                <Slider
                  min={QR_SIZE.min}
                  max={QR_SIZE.max}
                  step={QR_SIZE.step}
                  thumbLabel="Size"
                  value={v.size}
                  onChange={(n) => form.setFieldValue('size', n)}
                  marks={[{ value: 100 }, { value: 500 }, { value: 1000 }]}
                />
                {form.errors.size ? (
                  <Text size="xs" c="red.8" mt={4}>
                    {form.errors.size}
                  </Text>
                ) : null}
              </div>
              <div>
                <Text size="sm" fw={500} id="qr-margin-label">
                  Margin: {v.margin} {v.margin === 1 ? 'module' : 'modules'}
                </Text>
                <Slider
                  min={QR_MARGIN.min}
                  max={QR_MARGIN.max}
                  step={1}
                  thumbLabel="Margin"
                  value={v.margin}
                  onChange={(n) => form.setFieldValue('margin', n)}
                />
                {form.errors.margin ? (
                  <Text size="xs" c="red.8" mt={4}>
                    {form.errors.margin}
                  </Text>
                ) : null}
              </div>
              <Select
                label="Error correction"
                description="How much of the code can be covered or damaged and still scan"
                data={QR_ERROR_CORRECTION.map((l) => ({ value: l, label: QR_ERROR_CORRECTION_LABELS[l] }))}
                allowDeselect={false}
                {...form.getInputProps('errorCorrection')}
              />
              <Grid gap="sm">
                <Grid.Col span={{ base: 12, xs: 6 }}>
                  <ColorInput {...colourInputProps('Foreground color')} {...form.getInputProps('foregroundColor')} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, xs: 6 }}>
                  <ColorInput {...colourInputProps('Background color')} {...form.getInputProps('backgroundColor')} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, xs: 6 }}>
                  <ColorInput
                    {...colourInputProps('Corner square color')}
                    placeholder="Same as foreground"
                    {...form.getInputProps('cornerSquareColor')}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, xs: 6 }}>
                  <ColorInput
                    {...colourInputProps('Corner dot color')}
                    placeholder="Same as corner squares"
                    {...form.getInputProps('cornerDotColor')}
                  />
                </Grid.Col>
              </Grid>
              {colourProblem?.needsConfirmation || v.lightOnDarkConfirmed ? (
                <Checkbox
                  label="Use light on dark anyway"
                  description="Some phone cameras cannot read light codes on a dark background."
                  {...form.getInputProps('lightOnDarkConfirmed', { type: 'checkbox' })}
                />
              ) : null}
              <Box className={classes.logo}>
                <ImageUpload
                  label="Logo"
                  description="A JPEG, PNG or WebP image, placed in the middle on a clear plate (error correction rises to H)"
                  value={v.logoUpload}
                  onChange={(img) => form.setFieldValue('logoUpload', img)}
                />
              </Box>
              <TextInput
                label="Logo URL"
                placeholder="https://example.org/logo.png"
                description={
                  v.logoUpload
                    ? 'The uploaded logo is used; remove it to use a URL'
                    : 'Or the address of a PNG, JPEG, GIF or SVG image'
                }
                disabled={!!v.logoUpload}
                {...form.getInputProps('logoUrl')}
              />
              <Accordion variant="contained" multiple>
                <Accordion.Item value="utm">
                  <Accordion.Control>Campaign tracking (UTM)</Accordion.Control>
                  <Accordion.Panel>
                    <Stack gap="sm">
                      <Text size="xs" c="dimmed">
                        Added to the destination, so your website analytics show which flyer brought people.
                      </Text>
                      <TextInput label="UTM source" placeholder="flyer" {...form.getInputProps('utmSource')} />
                      <TextInput label="UTM medium" placeholder="print" {...form.getInputProps('utmMedium')} />
                      <TextInput label="UTM campaign" placeholder="easter" {...form.getInputProps('utmCampaign')} />
                    </Stack>
                  </Accordion.Panel>
                </Accordion.Item>
                <Accordion.Item value="schedule">
                  <Accordion.Control>Scheduled destinations</Accordion.Control>
                  <Accordion.Panel>
                    <Stack gap="sm">
                      <Text size="xs" c="dimmed">
                        Send scans somewhere else for a while, e.g. the Christmas services page until December 26, then
                        back to the URL above. Needs a short link.
                      </Text>
                      {form.errors.schedule ? (
                        <Alert color="red" p="xs">
                          {form.errors.schedule}
                        </Alert>
                      ) : null}
                      {v.schedule.map((_, i) => (
                        <Stack
                          key={i}
                          gap="xs"
                          p="sm"
                          style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
                        >
                          <Group justify="space-between" wrap="nowrap" align="flex-end">
                            <TextInput
                              style={{ flex: 1 }}
                              label={`Scheduled URL ${i + 1}`}
                              placeholder="https://"
                              {...form.getInputProps(`schedule.${i}.url`)}
                            />
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              size="lg"
                              aria-label={`Remove scheduled destination ${i + 1}`}
                              onClick={() => form.removeListItem('schedule', i)}
                            >
                              <IconTrash size={18} />
                            </ActionIcon>
                          </Group>
                          <Group grow wrap="wrap">
                            <DateTimePicker
                              label="From"
                              placeholder="Now"
                              clearable
                              valueFormat="MMM D, YYYY h:mm A"
                              {...form.getInputProps(`schedule.${i}.startsAt`)}
                            />
                            <DateTimePicker
                              label="Until"
                              placeholder="No end"
                              clearable
                              valueFormat="MMM D, YYYY h:mm A"
                              {...form.getInputProps(`schedule.${i}.endsAt`)}
                            />
                          </Group>
                        </Stack>
                      ))}
                      <Button
                        variant="light"
                        leftSection={<IconPlus size={18} />}
                        disabled={v.schedule.length >= QR_MAX_SCHEDULE}
                        onClick={() => form.insertListItem('schedule', { url: '', startsAt: null, endsAt: null })}
                      >
                        Add scheduled destination
                      </Button>
                    </Stack>
                  </Accordion.Panel>
                </Accordion.Item>
              </Accordion>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 5 }}>
            <Preview values={v} code={code} />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={requestClose}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {code ? 'Save changes' : 'Create QR Code'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
