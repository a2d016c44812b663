import dayjs from 'dayjs';
import { type Project, type ProjectFormValues } from '@lampstand/api/schemas/show-up';
import { type UploadedImage } from '../../ui/image-upload';

export type Values = Omit<
  ProjectFormValues,
  'tags' | 'coverImage' | 'images' | 'latitude' | 'longitude' | 'targetAmount'
> & {
  tags: string;
  latitude: number | '';
  longitude: number | '';
  targetAmount: number | '';
  coverImage: UploadedImage | null;
  images: UploadedImage[];
};

export const image = (i: { id: number | null; url: string; thumbnailUrl: string | null }): UploadedImage => ({
  ...(i.id != null ? { id: i.id } : {}),
  url: i.url,
  ...(i.thumbnailUrl ? { thumbnailUrl: i.thumbnailUrl } : {}),
});

export function initialValues(project?: Project): Values {
  return {
    title: project?.title ?? '',
    shortDescription: project?.shortDescription ?? '',
    description: project?.description ?? '',
    location: project?.location ?? '',
    latitude: project?.latitude ?? '',
    longitude: project?.longitude ?? '',
    targetAmount: project?.targetAmount ?? '',
    category: project?.category ?? 'community',
    tags: project?.tags.join(', ') ?? '',
    organizationName: project?.organizationName ?? '',
    contactEmail: project?.contactEmail ?? '',
    contactPhone: project?.contactPhone ?? '',
    website: project?.website ?? '',
    startDate: project?.startDate ?? dayjs().format('YYYY-MM-DD'),
    endDate: project?.endDate ?? '',
    coverImage: project?.coverImage
      ? image({ id: project.coverUploadId, url: project.coverImage, thumbnailUrl: project.coverThumbnailUrl })
      : null,
    images: project?.images.map(image) ?? [],
  };
}
