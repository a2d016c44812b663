import '@mantine/dates/styles.css';
import { Button, Grid, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { useId, useMemo } from 'react';
import { checkQrColours } from '@lampstand/api/shared/qr-codes';
import { trpc } from '../../lib/trpc';
import { showFirstError } from '../../ui/first-error';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { DestinationPicker } from './destination-picker';
import { toPayload, initialValues, validatePayload, type QrCode, type Values } from './qr-form-values';
import { TrackingAndSchedule } from './qr-tracking-schedule';
import { Preview } from './qr-preview';
import { AppearanceFields } from './qr-appearance-fields';

export function QrCodeDialog({ opened, code, onClose }: { opened: boolean; code?: QrCode; onClose: () => void }) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initialValues(code),
    validate: (v) => validatePayload(toPayload(v)),
  });
  const formId = useId();
  const showProblem = () => showFirstError(document.getElementById(formId));
  const saved = {
    form,
    invalidate: (utils: SaveUtils) => utils.qrCodes.list.invalidate(),
    onSuccess: onClose,
    onError: showProblem,
  };
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
  }, showProblem);
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
      <form id={formId} onSubmit={submit} noValidate>
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
              <AppearanceFields form={form} colourProblem={colourProblem} />
              <TrackingAndSchedule form={form} />
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
