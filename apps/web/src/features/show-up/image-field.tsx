import { TextInput } from '@mantine/core';

export interface UploadedImage {
  id?: number;
  url: string;
  thumbnailUrl?: string;
}

/**
 * Until the uploads service lands on this branch: the image's address. Same props as the shared
 * ImageUpload, so the swap is one import.
 */
export function ImageUpload({
  label,
  description,
  value,
  onChange,
}: {
  label: string;
  description?: string;
  value: UploadedImage | null;
  onChange: (image: UploadedImage | null) => void;
}) {
  return (
    <TextInput
      label={label}
      description={description ?? 'The address of an image (https://...)'}
      value={value?.url ?? ''}
      onChange={(e) => onChange(e.currentTarget.value ? { url: e.currentTarget.value } : null)}
    />
  );
}
