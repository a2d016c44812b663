import { useState } from 'react';
import { ActionIcon, Button, FileInput, Group, Image, Loader, SimpleGrid, Stack } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { UPLOAD_TOO_LARGE_MESSAGE, UPLOAD_TYPES } from '@lampstand/api/schemas/uploads';
import { uploadProblem } from '@lampstand/api/shared/uploads';
import { showFailure } from '../lib/use-save';
import { notifySuccess } from './notify';

/** An image stored by `POST /api/uploads` (or any image address kept from before). */
export interface UploadedImage {
  id?: number;
  url: string;
  thumbnailUrl?: string;
}

interface UploadAnswer {
  id: number;
  url: string;
  thumbnailUrl: string;
  message?: string;
}

const UPLOAD_FAILED_MESSAGE = 'The image could not be uploaded. Please try again.';

async function sendImage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file);
  const res = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => {
    throw new Error(UPLOAD_FAILED_MESSAGE);
  });
  // A 413 (the file, or the whole request, over the limit) reads the same as the browser's own check.
  if (res.status === 413) throw new Error(UPLOAD_TOO_LARGE_MESSAGE);
  const body = (await res.json().catch(() => null)) as UploadAnswer | null;
  if (!res.ok || !body) throw new Error(body?.message || UPLOAD_FAILED_MESSAGE);
  return { id: body.id, url: body.url, thumbnailUrl: body.thumbnailUrl };
}

/** A labelled image picker: uploads at once, shows a preview and a remove button. */
export function ImageUpload({
  label,
  description,
  value,
  onChange,
}: {
  label: string;
  description?: string;
  value: UploadedImage | null;
  onChange: (v: UploadedImage | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function fail(message: string) {
    setError(message);
    showFailure({ errorTitle: 'Image upload failed' }, message);
  }

  async function pick(file: File | null) {
    if (!file) return;
    // Size and type are checked before anything is sent: an 11 MB photo is refused at once.
    const problem = uploadProblem(file);
    if (problem) return fail(problem);
    setBusy(true);
    setError(null);
    try {
      const image = await sendImage(file);
      // Before onChange: a form's own notice ('Image added') then replaces this general one.
      notifySuccess('Image uploaded');
      onChange(image);
    } catch (err) {
      fail((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <FileInput
        label={label}
        description={description}
        placeholder={value ? 'Choose another image' : 'Choose an image (JPEG, PNG or WebP, up to 10 MB)'}
        accept={UPLOAD_TYPES.join(',')}
        // Mantine's placeholder grey is 2:1 on white; this one is readable (AA).
        styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
        value={null}
        onChange={(file) => void pick(file)}
        disabled={busy}
        error={error}
        leftSection={<IconPhoto size={18} aria-hidden />}
        rightSection={busy ? <Loader size="xs" aria-label="Uploading" /> : null}
      />
      {value && (
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <Image
            src={value.thumbnailUrl ?? value.url}
            alt={`${label} preview`}
            w={120}
            h={80}
            fit="cover"
            radius="sm"
          />
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={18} aria-hidden />}
            onClick={() => onChange(null)}
            aria-label={`Remove ${label.toLowerCase()}`}
          >
            Remove
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Images already added to a form, each with its remove button ('Remove project image 2'); nothing when empty. */
export function ImageThumbnails({
  images,
  what,
  onRemove,
}: {
  images: UploadedImage[];
  /** 'Project image': the alt text and, in lower case, the remove button's name. */
  what: string;
  onRemove: (index: number) => void;
}) {
  if (!images.length) return null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      {images.map((img, i) => (
        <Stack key={`${img.url}-${i}`} gap={4}>
          <Image src={img.thumbnailUrl ?? img.url} alt={`${what} ${i + 1}`} radius="sm" h={90} fit="cover" />
          <ActionIcon
            variant="light"
            color="red"
            aria-label={`Remove ${what.toLowerCase()} ${i + 1}`}
            onClick={() => onRemove(i)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
