import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { confirmDestructive } from '../../ui/confirm';
import type { Toast } from '../../lib/use-save';

/** Publishing reaches everyone with the link, unpublishing takes the page away: both ask first. */
export function confirmPublish(page: { name: string; slug: string; published: boolean }, onConfirm: () => void) {
  if (page.published) {
    confirmDestructive({
      title: 'Unpublish landing page',
      text: `Unpublish ${page.name}? Visitors to /p/${page.slug} will see Page Not Found.`,
      confirm: 'Unpublish',
      onConfirm,
    });
    return;
  }
  modals.openConfirmModal({
    title: 'Publish landing page',
    children: (
      <Text size="sm">
        Publish {page.name}? Anyone with the link /p/{page.slug} (or its QR code) will be able to see it.
      </Text>
    ),
    labels: { confirm: 'Publish', cancel: 'Cancel' },
    onConfirm,
  });
}

/** The toast once the page is published or a draft again. */
export const publishedToast = (p: { published: boolean }): Toast => [
  'Landing page updated',
  p.published ? 'The page is published.' : 'The page is a draft again.',
];
