import { afterEach, describe, expect, it } from 'vitest';
import { cleanNotifications, notificationsStore } from '@mantine/notifications';
import { notifyError, notifySuccess } from './notify';

const state = () => notificationsStore.getState();
const titles = () => state().notifications.map((n) => n.title);

afterEach(() => cleanNotifications());

describe('notices', () => {
  it('the newest replaces the one showing at once: nothing waits in a queue', () => {
    notifySuccess('URL Copied');
    notifySuccess('URL Copied', 'again');
    expect(state().notifications.map((n) => n.message)).toEqual(['again']);
    expect(state().queue).toEqual([]);
  });

  it('a success replaces the error before it', () => {
    notifyError('Missing information', 'Give the campaign a name');
    notifySuccess('Campaign created');
    expect(titles()).toEqual(['Campaign created']);
    expect(state().notifications[0]!.color).toBe('green');
  });
});
