import type { TRPCClientErrorLike } from '@trpc/client';
import type { UseTRPCMutationOptions, UseTRPCMutationResult } from '@trpc/react-query/shared';
import type { AppRouter } from '@lampstand/api';
import { trpc } from './trpc';
import { errorMessage, errorText } from './errors';
import { notifyError, notifySuccess } from '../ui/notify';

/** A failed call as the browser sees it: `data` is the server's errorFormatter shape (code, httpStatus, issues). */
export type SaveError = TRPCClientErrorLike<AppRouter>;

/** The field messages the server sent (a zod issue, or an AppError naming its field), typed from the router. */
function fieldIssues(error: SaveError): { path: string; message: string }[] {
  return error.data?.issues ?? [];
}

/** What a form needs to show a server message under its input: `useForm()`'s return value fits. */
export interface FieldErrorTarget {
  setFieldError: (path: string, message: string) => void;
}

/** A toast: its title alone, or its title and text. */
export type Toast = string | readonly [title: string, message: string];

/** `trpc.useUtils()`: what `invalidate` refreshes. */
export type SaveUtils = ReturnType<typeof trpc.useUtils>;

export interface SaveOptions<TInput, TOutput> {
  /** The success toast; a function reads what the server returned (and what was sent). */
  success?: Toast | ((output: TOutput, input: TInput) => Toast);
  /** The failure toast's title; its text is the server's message. */
  errorTitle: string;
  /** Words before the server's message: 'Failed to create list' reads 'Failed to create list: <message>'. */
  errorPrefix?: string;
  /** The text starts with the status ('401: Invalid username or password'). */
  errorStatus?: boolean;
  /** A text of the screen's own instead of the server's message. */
  errorText?: string;
  /** The queries a save makes stale, refreshed (and awaited) before `onSuccess`. */
  invalidate?: (utils: SaveUtils, output: TOutput, input: TInput) => Promise<unknown> | readonly Promise<unknown>[];
  /** What else a save does (close the dialog, navigate), after the toast and the refresh. */
  onSuccess?: (output: TOutput, input: TInput) => unknown;
  /** What else a failure does, after the toast. */
  onError?: (error: SaveError, input: TInput) => unknown;
  /** The server's field issues go under the form's inputs (`form.setFieldError(path, message)`). */
  form?: FieldErrorTarget;
  /** With `form`: a failure the server tied to fields shows under them only, with no toast. */
  fieldErrorsOnly?: boolean;
  /**
   * A failure the screen answers itself, e.g. with a question ('Save a possible duplicate?'):
   * returning true shows nothing else (no toast, no field messages, no `onError`).
   */
  answer?: (error: SaveError, input: TInput) => boolean;
}

/** A tRPC mutation procedure as `trpc.contacts.create` is: what `useSave` calls. */
export interface SaveProcedure<TInput, TOutput> {
  useMutation: (
    opts?: UseTRPCMutationOptions<TInput, SaveError, TOutput>,
  ) => UseTRPCMutationResult<TOutput, SaveError, TInput, unknown>;
}

/**
 * The failure toast's text as the options word it. A server message that only repeats the title
 * ('Failed to generate content' under 'Failed to generate content') reads as the spec's fallback.
 */
function saveErrorText(
  error: SaveError,
  options: Pick<SaveOptions<never, never>, 'errorTitle' | 'errorPrefix' | 'errorStatus' | 'errorText'>,
) {
  let message = options.errorText ?? (options.errorStatus ? errorText(error) : errorMessage(error));
  if (message === options.errorTitle) message = errorMessage(null);
  return options.errorPrefix ? `${options.errorPrefix}: ${message}` : message;
}

/** Shows a failure the way every save does: field issues on the form, then the toast (unless the fields carry it). */
function showSaveError(error: SaveError, options: Omit<SaveOptions<never, never>, 'success' | 'invalidate'>) {
  const issues = options.form ? fieldIssues(error) : [];
  for (const issue of issues) options.form?.setFieldError(issue.path, issue.message);
  if (!(options.fieldErrorsOnly && issues.length > 0)) notifyError(options.errorTitle, saveErrorText(error, options));
}

function showToast(toast: Toast) {
  if (typeof toast === 'string') notifySuccess(toast);
  else notifySuccess(toast[0], toast[1]);
}

/**
 * A save (create, update, delete, any mutation) with the spec's toasts: on success the success toast,
 * the `invalidate`d queries refreshed, then `onSuccess`; on failure the server's field issues on `form`
 * and the error toast. Returns the mutation (`mutate`, `isPending`, ...).
 *
 *   const create = useSave(trpc.contactLists.create, {
 *     success: 'List created',
 *     errorTitle: 'Error', errorPrefix: 'Failed to create list',
 *     invalidate: (utils) => utils.contactLists.list.invalidate(),
 *     onSuccess: () => onClose(),
 *   });
 */
export function useSave<TInput, TOutput>(
  procedure: SaveProcedure<TInput, TOutput>,
  options: SaveOptions<TInput, TOutput>,
): UseTRPCMutationResult<TOutput, SaveError, TInput, unknown> {
  const utils = trpc.useUtils();
  return procedure.useMutation({
    onSuccess: async (output, input) => {
      const { success, invalidate, onSuccess } = options;
      if (success !== undefined) showToast(typeof success === 'function' ? success(output, input) : success);
      if (invalidate) await Promise.all([invalidate(utils, output, input)].flat());
      await onSuccess?.(output, input);
    },
    onError: async (error, input) => {
      if (options.answer?.(error, input)) return;
      showSaveError(error, options);
      await options.onError?.(error, input);
    },
  });
}
