import { Box, Checkbox, ColorInput, Grid, Select, Slider, Text, TextInput } from '@mantine/core';
import { QR_ERROR_CORRECTION, QR_ERROR_CORRECTION_LABELS, QR_MARGIN, QR_SIZE } from '@lampstand/api/schemas/qr-codes';
import { type checkQrColours } from '@lampstand/api/shared/qr-codes';
import { ImageUpload } from '../../ui/image-upload';
import classes from './qr-codes.module.css';
import type { QrForm } from './qr-form-values';

/** Colours offered under each picker (dark ones for modules, light ones for the background). */
export const QR_SWATCHES = [
  '#000000',
  '#1A1B1E',
  '#364FC7',
  '#2B8A3E',
  '#C92A2A',
  '#5F3DC4',
  '#FFFFFF',
  '#FFF9DB',
  '#E7F5FF',
];

/**
 * A colour field as the spec stores it (hex): typed, picked from the swatches (buttons named by
 * their hex) or from the screen. Not Mantine's saturation/hue picker: ColorInput does not pass its
 * sliders' labels on, so screen readers would meet two unnamed sliders (axe: aria-input-field-name).
 */
export const colourInputProps = (label: string) => ({
  label,
  format: 'hex' as const,
  withPicker: false,
  swatches: QR_SWATCHES,
  eyeDropperButtonProps: { 'aria-label': `Pick the ${label.toLowerCase()} from the screen` },
});

/** The look of the code: size, margin, error correction, colours and the logo. */
export function AppearanceFields({
  form,
  colourProblem,
}: {
  form: QrForm;
  colourProblem: ReturnType<typeof checkQrColours>;
}) {
  const v = form.values;
  return (
    <>
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
    </>
  );
}
