import { TRPCClientError, type TRPCClientErrorLike } from '@trpc/client';
import type { UseTRPCMutationOptions, UseTRPCMutationResult } from '@trpc/react-query/shared';
import type { AppRouter } from '@lampstand/api';
import { trpc } from './trpc';
import { errorMessage, errorText } from './errors';
import { notifyError, notifySuccess, notifyWaiting } from '../ui/notify';

/** A failed call as the browser sees it: `data` is the server's errorFormatter shape (code, httpStatus, issues). */
export type SaveError = TRPCClientErrorLike<AppRouter>;

/** A failed tRPC call (a mutation, or a query fetched on demand), as opposed to any other thrown value. */
export function isSaveError(error: unknown): error is SaveError {
  return error instanceof TRPCClientError;
}

/**
 * The field messages the server sent (a zod issue, or an AppError naming its field), typed from the
 * router; none for anything else. The one place the web app reads them.
 */
export function fieldIssues(error: unknown): { path: string; message: string }[] {
  return isSaveError(error) ? (error.data?.issues ?? []) : [];
}

/** The server's message for one field ('testEmail', 'ifDuplicate'), if it sent one. */
export function fieldIssue(error: unknown, path: string): string | undefined {
  return fieldIssues(error).find((i) => i.path === path)?.message;
}

/** What a form needs to show a server message under its input: `useForm()`'s return value fits. */
export interface FieldErrorTarget {
  setFieldError: (path: string, message: string) => void;
}

/**
 * A toast: its title alone, or its title and text (green); or, where the call worked but what it was
 * for still waits or did not happen ('Not verified yet'), with the kind that gives its colour.
 */
export type Toast =
  string | readonly [title: string, message: string] | { kind: 'waiting' | 'failure'; title: string; message: string };

/** `trpc.useUtils()`: what `invalidate` refreshes. */
export type SaveUtils = ReturnType<typeof trpc.useUtils>;

/** How a failure shows: the red toast's words, and where the server's field messages go. */
export interface FailureOptions {
  /** The failure toast's title; its text is the server's message. */
  errorTitle: string;
  /** Words before the server's message: 'Failed to create list' reads 'Failed to create list: <message>'. */
  errorPrefix?: string;
  /** The text starts with the status ('401: Invalid username or password'). */
  errorStatus?: boolean;
  /** A text of the screen's own instead of the server's message. */
  errorText?: string;
  /** The server's field issues go under the form's inputs (`form.setFieldError(path, message)`). */
  form?: FieldErrorTarget;
  /** With `form`: a failure the server tied to fields shows under them only, with no toast. */
  fieldErrorsOnly?: boolean;
}

export interface SaveOptions<TInput, TOutput> extends FailureOptions {
  /** The success toast; a function reads what the server returned (and what was sent). */
  success?: Toast | ((output: TOutput, input: TInput) => Toast);
  /** The queries a save makes stale, refreshed (and awaited) before `onSuccess`. */
  invalidate?: (utils: SaveUtils, output: TOutput, input: TInput) => Promise<unknown> | readonly Promise<unknown>[];
  /** What else a save does (close the dialog, navigate), after the toast and the refresh. */
  onSuccess?: (output: TOutput, input: TInput) => unknown;
  /** What else a failure does, after the toast. */
  onError?: (error: SaveError, input: TInput) => unknown;
  /**
   * A failure the screen answers itself, e.g. with a question ('Save a possible duplicate?') or a
   * warning beside its button: returning true shows nothing else (no toast, no field messages, no
   * `onError`).
   */
  answer?: (error: SaveError, input: TInput) => boolean;
  /**
   * Passed to the mutation as is: 'always' makes a call without the network fail at once instead
   * of waiting paused (an offline station then works offline).
   */
  networkMode?: 'online' | 'always' | 'offlineFirst';
}

/** A tRPC mutation procedure as `trpc.contacts.create` is: what `useSave` calls. */
export interface SaveProcedure<TInput, TOutput> {
  useMutation: (
    opts?: UseTRPCMutationOptions<TInput, SaveError, TOutput>,
  ) => UseTRPCMutationResult<TOutput, SaveError, TInput, unknown>;
}

/** What `useSave` returns: the mutation (`mutate`, `isPending`, ...) and `fail`. */
export type Save<TInput, TOutput> = UseTRPCMutationResult<TOutput, SaveError, TInput, unknown> & {
  /**
   * Shows a failure before the call, as the save's own failure shows: a check of the screen's
   * ('Please select a contact list.') or a query fetched first (its field issues on `form`).
   */
  fail: (reason: unknown) => void;
};

/**
 * The failure toast's text as the options word it: a string reason is the text itself, an error
 * gives its message. A message that only repeats the title ('Failed to generate content' under
 * 'Failed to generate content') reads as the spec's fallback.
 */
function failureText(reason: unknown, options: FailureOptions) {
  let message =
    typeof reason === 'string'
      ? reason
      : (options.errorText ?? (options.errorStatus ? errorText(reason) : errorMessage(reason)));
  if (message === options.errorTitle) message = errorMessage(null);
  return options.errorPrefix ? `${options.errorPrefix}: ${message}` : message;
}

/**
 * Shows a failure the way every save does: the server's field issues on `form`, then the red toast
 * (unless `fieldErrorsOnly` and the fields carry it). `reason` is what failed: a tRPC error, any
 * other error (its message), or the text to show. For what is not a save: a copy to the clipboard,
 * the browser's location, a card payment, a count fetched on demand.
 */
export function showFailure(options: FailureOptions, reason: unknown): void {
  const issues = options.form ? fieldIssues(reason) : [];
  for (const issue of issues) options.form?.setFieldError(issue.path, issue.message);
  if (!(options.fieldErrorsOnly && issues.length > 0)) notifyError(options.errorTitle, failureText(reason, options));
}

function showToast(toast: Toast) {
  if (typeof toast === 'string') notifySuccess(toast);
  else if ('kind' in toast) (toast.kind === 'waiting' ? notifyWaiting : notifyError)(toast.title, toast.message);
  else notifySuccess(toast[0], toast[1]);
}

/**
 * Every mutation (a save, a delete, a send, a toggle) with the spec's toasts: on success the success
 * toast, the `invalidate`d queries refreshed, then `onSuccess`; on failure the server's field issues
 * on `form` and the error toast, then `onError`. Returns the mutation (`mutate`, `isPending`, ...)
 * and `fail`, which shows a failure found before the call the same way.
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
): Save<TInput, TOutput> {
  const utils = trpc.useUtils();
  const mutation = procedure.useMutation({
    networkMode: options.networkMode,
    onSuccess: async (output, input) => {
      const { success, invalidate, onSuccess } = options;
      if (success !== undefined) showToast(typeof success === 'function' ? success(output, input) : success);
      if (invalidate) await Promise.all([invalidate(utils, output, input)].flat());
      await onSuccess?.(output, input);
    },
    onError: async (error, input) => {
      if (options.answer?.(error, input)) return;
      showFailure(options, error);
      await options.onError?.(error, input);
    },
  });
  return { ...mutation, fail: (reason: unknown) => showFailure(options, reason) };
}
