import { useState } from 'react';
import { Button, FileInput, Group, Image, Loader, Stack } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { notifyError, notifySuccess } from './notify';

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

async function sendImage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file);
  const res = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as UploadAnswer | null;
  if (!res.ok || !body) throw new Error(body?.message || 'The image could not be uploaded. Please try again.');
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

  async function pick(file: File | null) {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const image = await sendImage(file);
      onChange(image);
      notifySuccess('Image uploaded');
    } catch (err) {
      const message = (err as Error).message;
      setError(message);
      notifyError('Image upload failed', message);
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
        accept="image/jpeg,image/png,image/webp"
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
