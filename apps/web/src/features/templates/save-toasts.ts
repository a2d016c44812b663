import { errorMessage } from '../../lib/errors';
import { notifyError, notifySuccess } from '../../ui/notify';

/**
 * The create and update mutations' toasts of the admin's template and package dialogs ('Package
 * created successfully.', 'Failed to update template: …'); a saved dialog refreshes the list, is reset and closes.
 */
export function saveToasts(
  noun: 'template' | 'package',
  then: { refresh: () => Promise<unknown>; reset: () => void; close: () => void },
) {
  const Noun = noun === 'template' ? 'Template' : 'Package';
  const saved = (verb: string) => async () => {
    notifySuccess('Success', `${Noun} ${verb} successfully.`);
    await then.refresh();
    then.reset();
    then.close();
  };
  const failed = (verb: string) => (e: unknown) =>
    notifyError('Error', `Failed to ${verb} ${noun}: ${errorMessage(e)}`);
  return {
    create: { onSuccess: saved('created'), onError: failed('create') },
    update: { onSuccess: saved('updated'), onError: failed('update') },
  };
}
