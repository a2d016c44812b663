import type { SaveOptions } from '../../lib/use-save';

/**
 * The create and update saves of the admin's template and package dialogs ('Package created
 * successfully.', 'Failed to update template: …'); a saved dialog refreshes the list, is reset and closes.
 */
export function saveToasts(
  noun: 'template' | 'package',
  then: { refresh: () => Promise<unknown>; reset: () => void; close: () => void },
) {
  const Noun = noun === 'template' ? 'Template' : 'Package';
  const options = (verb: string, done: string): SaveOptions<unknown, unknown> => ({
    success: ['Success', `${Noun} ${done} successfully.`],
    errorTitle: 'Error',
    errorPrefix: `Failed to ${verb} ${noun}`,
    invalidate: then.refresh,
    onSuccess: () => {
      then.reset();
      then.close();
    },
  });
  return { create: options('create', 'created'), update: options('update', 'updated') };
}
