import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { trpc } from '../lib/trpc';
import { useSave } from '../lib/use-save';
import { notifySuccess } from '../ui/notify';
import { clearFormDrafts } from '../ui/form-draft';
import type { SessionUser } from '@lampstand/api';

/** The signed-in user (null when not signed in), as GET /api/user answers. */
export function useSession(): { user: SessionUser | null; isLoading: boolean } {
  // A 401 is a final answer: without retryOnMount: false, the sign-in page mounting after the
  // redirect asked again (react-query refetches a query in error when a new component uses it).
  const me = trpc.auth.me.useQuery(undefined, { retry: false, retryOnMount: false });
  if (me.isLoading) return { user: null, isLoading: true };
  // 401 means "not signed in"; any other failure also leaves the visitor at the sign-in page.
  if (me.error) return { user: null, isLoading: false };
  return { user: me.data ?? null, isLoading: false };
}

export function useLogout() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useSave(trpc.auth.logout, {
    errorTitle: 'Logout failed',
    errorStatus: true,
    onSuccess: async () => {
      // Nothing of the previous account may linger in the cache or in saved drafts.
      queryClient.clear();
      clearFormDrafts();
      utils.auth.me.setData(undefined, undefined);
      await utils.auth.me.invalidate();
      // The toast once the session is gone, as the spec orders it.
      notifySuccess('Logged out', 'You have been successfully logged out.');
      void navigate('/auth', { replace: true });
    },
  });
}

export function useStopImpersonating() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useSave(trpc.admin.stopImpersonating, {
    success: 'Impersonation ended',
    errorTitle: 'Error ending impersonation',
    onSuccess: () => {
      queryClient.clear();
      void navigate('/admin/users');
    },
  });
}
