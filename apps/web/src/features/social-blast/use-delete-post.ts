import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { type SocialPost } from './post-form-values';

/** The spec's delete confirmation, then the delete with its toasts. */
export function useDeletePost(onDeleted?: () => void) {
  const del = useSave(trpc.socialPosts.delete, {
    success: 'Post deleted successfully',
    errorTitle: 'Error',
    errorPrefix: 'Failed to delete post',
    invalidate: (utils) => utils.socialPosts.list.invalidate(),
    onSuccess: () => onDeleted?.(),
  });
  return (post: SocialPost) =>
    confirmDestructive({
      title: 'Delete post',
      text: 'Are you sure you want to delete this post?',
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: post.id }),
    });
}
