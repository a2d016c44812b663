import { afterEach, describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanNotifications, notificationsStore } from '@mantine/notifications';
import { TRPCClientError, httpLink, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter, type Context } from '@lampstand/api/server';
import type { AppRouter } from '@lampstand/api';
import { createQueryClient, trpc } from './trpc';
import {
  fieldIssue,
  fieldIssues,
  showFailure,
  useSave,
  type FieldErrorTarget,
  type SaveOptions,
  type SaveProcedure,
} from './use-save';

/** The real router and its errorFormatter answer: the input check fails before anything reads the context. */
const realServer = trpc.createClient({
  links: [
    httpLink({
      url: 'http://app.test/trpc',
      fetch: (url, init) =>
        fetchRequestHandler({
          endpoint: '/trpc',
          req: new Request(url, init as RequestInit),
          router: appRouter,
          createContext: () => ({}) as Context,
        }),
    }),
  ],
});

/** A server that answers every call with `answer(path, input)` (a value, or a thrown TRPCClientError). */
function cannedServer(answer: (path: string, input: unknown) => unknown) {
  const link: TRPCLink<AppRouter> =
    () =>
    ({ op }) =>
      observable((observer) => {
        try {
          observer.next({ result: { type: 'data', data: answer(op.path, op.input) } });
          observer.complete();
        } catch (err) {
          observer.error(err as TRPCClientError<AppRouter>);
        }
      });
  return trpc.createClient({ links: [link] });
}

/** Renders a component calling `useSave` once and returns the mutation, ready to `mutateAsync`. */
function renderSave<TInput, TOutput>(
  client: ReturnType<typeof trpc.createClient>,
  pick: () => SaveProcedure<TInput, TOutput>,
  options: SaveOptions<TInput, TOutput>,
) {
  const queryClient = createQueryClient();
  let mutation: ReturnType<typeof useSave<TInput, TOutput>> | undefined;
  function Probe() {
    mutation = useSave(pick(), options);
    return null;
  }
  renderToString(
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <Probe />
      </QueryClientProvider>
    </trpc.Provider>,
  );
  if (!mutation) throw new Error('useSave did not render');
  return { mutation, queryClient };
}

const shown = () =>
  notificationsStore.getState().notifications.map((n) => ({ title: n.title, message: n.message, color: n.color }));

function recordingForm() {
  const errors: Record<string, string> = {};
  const form: FieldErrorTarget = { setFieldError: (path, message) => (errors[path] = message) };
  return { form, errors };
}

afterEach(() => cleanNotifications());

describe('useSave', () => {
  it('puts the server’s field issues on the form and toasts the error title with the server’s message', async () => {
    const { form, errors } = recordingForm();
    const { mutation } = renderSave(realServer, () => trpc.auth.login, {
      success: 'Login successful',
      errorTitle: 'Login failed',
      form,
    });
    const failure = await mutation.mutateAsync({ username: '', password: '' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect(errors).toEqual({ username: 'Username is required', password: 'Password is required' });
    expect(shown()).toEqual([{ title: 'Login failed', message: 'Username is required', color: 'red' }]);
  });

  it('words the error text as asked: with the status, after a prefix, or the screen’s own', async () => {
    // One notice at a time: each failure's notice replaces the one before, so read each in turn.
    const messages: unknown[] = [];
    const status = renderSave(realServer, () => trpc.auth.login, { errorTitle: 'Login failed', errorStatus: true });
    await status.mutation.mutateAsync({ username: 'pastor', password: '' }).catch(() => undefined);
    messages.push(...shown().map((n) => n.message));
    const prefix = renderSave(realServer, () => trpc.auth.login, {
      errorTitle: 'Error',
      errorPrefix: 'Failed to sign in',
    });
    await prefix.mutation.mutateAsync({ username: 'pastor', password: '' }).catch(() => undefined);
    messages.push(...shown().map((n) => n.message));
    const own = renderSave(realServer, () => trpc.auth.login, { errorTitle: 'Error', errorText: 'Please try again.' });
    await own.mutation.mutateAsync({ username: 'pastor', password: '' }).catch(() => undefined);
    messages.push(...shown().map((n) => n.message));
    expect(messages).toEqual([
      '400: Password is required',
      'Failed to sign in: Password is required',
      'Please try again.',
    ]);
  });

  it('with fieldErrorsOnly, an error on a field shows there only; one without fields still toasts', async () => {
    const { form, errors } = recordingForm();
    const onField = renderSave(realServer, () => trpc.auth.login, {
      errorTitle: 'Login failed',
      form,
      fieldErrorsOnly: true,
    });
    await onField.mutation.mutateAsync({ username: 'pastor', password: '' }).catch(() => undefined);
    expect(errors).toEqual({ password: 'Password is required' });
    expect(shown()).toEqual([]);

    const refused = cannedServer(() => {
      throw TRPCClientError.from({
        error: {
          code: -32603,
          message: 'Too many attempts',
          data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429 },
        },
      });
    });
    const noFields = renderSave(refused, () => trpc.auth.login, {
      errorTitle: 'Login failed',
      form,
      fieldErrorsOnly: true,
    });
    await noFields.mutation.mutateAsync({ username: 'pastor', password: 'x' }).catch(() => undefined);
    expect(shown()).toEqual([{ title: 'Login failed', message: 'Too many attempts', color: 'red' }]);
  });

  it('a server message that only repeats the title reads as the fallback, not twice', async () => {
    const failed = cannedServer(() => {
      throw TRPCClientError.from({
        error: {
          code: -32603,
          message: 'Failed to generate content',
          data: { code: 'BAD_GATEWAY', httpStatus: 502 },
        },
      });
    });
    const save = renderSave(failed, () => trpc.auth.login, { errorTitle: 'Failed to generate content' });
    await save.mutation.mutateAsync({ username: 'pastor', password: 'x' }).catch(() => undefined);
    expect(shown()).toEqual([
      { title: 'Failed to generate content', message: 'Please try again later.', color: 'red' },
    ]);
  });

  it('on success: the toast from the output, then the refresh, then onSuccess, in that order', async () => {
    const steps: string[] = [];
    const server = cannedServer((path, input) => ({ id: 7, name: (input as { name: string }).name, path }));
    const { mutation, queryClient } = renderSave(server, () => trpc.contactLists.create, {
      success: (list, input) => ['List created', `${list.name} (${input.name})`],
      errorTitle: 'Error',
      invalidate: (utils, list) => {
        steps.push(`invalidate after ${shown().length} toast`);
        const later = new Promise((done) => setTimeout(done, 20)).then(() => steps.push(`refreshed ${list.id}`));
        return [utils.contactLists.list.invalidate(), later];
      },
      onSuccess: (list) => steps.push(`done ${list.id}`),
    });
    queryClient.setQueryData([['contactLists', 'list'], { type: 'query' }], []);
    const list = await mutation.mutateAsync({ name: 'Choir' });
    expect(list).toMatchObject({ id: 7, name: 'Choir', path: 'contactLists.create' });
    expect(shown()).toEqual([{ title: 'List created', message: 'Choir (Choir)', color: 'green' }]);
    expect(steps).toEqual(['invalidate after 1 toast', 'refreshed 7', 'done 7']);
    expect(queryClient.getQueryState([['contactLists', 'list'], { type: 'query' }])?.isInvalidated).toBe(true);
  });

  it('a failure without a form runs onError after the toast and leaves success untouched', async () => {
    const seen: string[] = [];
    const server = cannedServer(() => {
      throw TRPCClientError.from({
        error: {
          code: -32600,
          message: 'List name is required',
          data: { code: 'BAD_REQUEST', httpStatus: 400, issues: [{ path: 'name', message: 'List name is required' }] },
        },
      });
    });
    const { mutation } = renderSave(server, () => trpc.contactLists.create, {
      success: 'List created',
      errorTitle: 'Error',
      errorPrefix: 'Failed to create list',
      onSuccess: () => seen.push('success'),
      onError: (error) => seen.push(`${shown().length} toast, issue ${error.data?.issues?.[0]?.path}`),
    });
    await mutation.mutateAsync({ name: '' }).catch(() => undefined);
    expect(shown()).toEqual([
      { title: 'Error', message: 'Failed to create list: List name is required', color: 'red' },
    ]);
    expect(seen).toEqual(['1 toast, issue name']);
  });

  it('a failure the screen answers itself (a question) shows nothing else; others show as usual', async () => {
    const asked: string[] = [];
    const { form, errors } = recordingForm();
    const server = cannedServer((_path, input) => {
      if ((input as { ifDuplicate?: string }).ifDuplicate === 'save') return { id: 9 };
      const message = 'A contact with this phone number already exists: Mary Jones.';
      throw TRPCClientError.from({
        error: {
          code: -32603,
          message,
          data: { code: 'CONFLICT', httpStatus: 409, issues: [{ path: 'ifDuplicate', message }] },
        },
      });
    });
    const { mutation } = renderSave(server, () => trpc.contacts.create, {
      errorTitle: 'Error creating contact',
      form,
      answer: (error, input) => {
        if (input.firstName !== 'Mary') return false;
        asked.push(`${error.message} (${input.ifDuplicate})`);
        return true;
      },
      onError: () => asked.push('onError'),
    });
    const mary = { firstName: 'Mary', lastName: 'Jones', email: 'm@example.org', phone: '0412000111' };
    await mutation.mutateAsync({ ...mary, ifDuplicate: 'ask' }).catch(() => undefined);
    expect(asked).toEqual(['A contact with this phone number already exists: Mary Jones. (ask)']);
    expect(shown()).toEqual([]);
    expect(errors).toEqual({});
    await mutation.mutateAsync({ ...mary, firstName: 'Ann', ifDuplicate: 'ask' }).catch(() => undefined);
    expect(shown()).toEqual([
      {
        title: 'Error creating contact',
        message: 'A contact with this phone number already exists: Mary Jones.',
        color: 'red',
      },
    ]);
    expect(asked.at(-1)).toBe('onError');
  });

  it('fail shows a check made before the call as the save’s own failure: its title and prefix', async () => {
    const { mutation } = renderSave(realServer, () => trpc.contactLists.addContact, {
      errorTitle: 'Error',
      errorPrefix: 'Failed to add contact to list',
      errorText: 'The screen’s words for a server failure',
    });
    mutation.fail('Please select a contact list.');
    expect(shown()).toEqual([
      { title: 'Error', message: 'Failed to add contact to list: Please select a contact list.', color: 'red' },
    ]);
    // A failure of the call itself still reads with the screen's words.
    await mutation.mutateAsync({ listId: 0, contactId: 0 }).catch(() => undefined);
    expect(shown()).toEqual([
      {
        title: 'Error',
        message: 'Failed to add contact to list: The screen’s words for a server failure',
        color: 'red',
      },
    ]);
  });

  it('fail puts the field issues of a query fetched first on the form, as the save’s own failure would', () => {
    const { form, errors } = recordingForm();
    const { mutation } = renderSave(realServer, () => trpc.giving.startStatements, {
      errorTitle: 'Error',
      errorPrefix: 'Failed to start the statements',
      form,
      fieldErrorsOnly: true,
    });
    const refusedDates = TRPCClientError.from({
      error: {
        code: -32600,
        message: 'To must be on or after From',
        data: {
          code: 'BAD_REQUEST',
          httpStatus: 400,
          issues: [{ path: 'to', message: 'To must be on or after From' }],
        },
      },
    });
    mutation.fail(refusedDates);
    expect(errors).toEqual({ to: 'To must be on or after From' });
    expect(shown()).toEqual([]);
    mutation.fail(new Error('Network error'));
    expect(shown()).toEqual([
      { title: 'Error', message: 'Failed to start the statements: Network error', color: 'red' },
    ]);
  });

  it('showFailure words a failure that is not a save’s: a text as it is, an error by its message', () => {
    const { form, errors } = recordingForm();
    showFailure({ errorTitle: 'Could not copy', form }, 'https://example.org/q/abc');
    expect(shown()).toEqual([{ title: 'Could not copy', message: 'https://example.org/q/abc', color: 'red' }]);
    showFailure({ errorTitle: 'Location detection failed' }, new Error('User denied Geolocation'));
    expect(shown()).toEqual([{ title: 'Location detection failed', message: 'User denied Geolocation', color: 'red' }]);
    showFailure({ errorTitle: 'Failed to count recipients' }, undefined);
    expect(shown()).toEqual([
      { title: 'Failed to count recipients', message: 'Please try again later.', color: 'red' },
    ]);
    expect(errors).toEqual({});
  });

  it('field issues are read from a tRPC failure only', () => {
    const refused = TRPCClientError.from({
      error: {
        code: -32600,
        message: 'Test emails go to your account email or to one of your contacts',
        data: {
          code: 'BAD_REQUEST',
          httpStatus: 400,
          issues: [{ path: 'testEmail', message: 'Test emails go to your account email or to one of your contacts' }],
        },
      },
    });
    expect(fieldIssue(refused, 'testEmail')).toBe('Test emails go to your account email or to one of your contacts');
    expect(fieldIssue(refused, 'subject')).toBeUndefined();
    const lookalike = Object.assign(new Error('x'), { data: { issues: [{ path: 'testEmail', message: 'x' }] } });
    expect(fieldIssues(lookalike)).toEqual([]);
    expect(fieldIssues('testEmail')).toEqual([]);
  });
});
