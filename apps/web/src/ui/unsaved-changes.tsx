import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';
import { useUnloadWarning } from './form-draft';

/**
 * Typed work is never thrown away silently: while `dirty`, leaving the screen inside the app
 * (a link, the sidebar, Back) asks first in a dialog, and closing or reloading the tab asks
 * through the browser's own prompt (`beforeunload`). Call `leaveWithoutAsking()` just before the
 * screen itself navigates away after saving. `words` replaces the dialog's title and text where
 * the work is not typed (a chosen file not imported yet).
 */
export function useUnsavedChangesGuard(
  dirty: boolean,
  what = 'This page',
  words?: { title: string; text: string },
): { leaveWithoutAsking: () => void } {
  const saved = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !saved.current &&
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    // Exactly one answer per attempt: Leave proceeds; Keep editing, Escape or the close button stay.
    let answered = false;
    const answer = (leave: boolean) => {
      if (answered) return;
      answered = true;
      if (leave) blocker.proceed();
      else blocker.reset();
    };
    modals.openConfirmModal({
      title: words?.title ?? 'Leave without saving?',
      children: (
        <Text size="sm">
          {words?.text ?? `${what} has changes that are not saved. They will be lost if you leave.`}
        </Text>
      ),
      labels: { confirm: 'Leave', cancel: 'Keep editing' },
      confirmProps: { color: 'red' },
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
      onClose: () => answer(false),
    });
  }, [blocker, what, words?.title, words?.text]);

  useUnloadWarning(dirty);

  return {
    leaveWithoutAsking: () => {
      saved.current = true;
    },
  };
}
