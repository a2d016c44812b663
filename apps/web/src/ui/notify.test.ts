import { afterEach, describe, expect, it } from 'vitest';
import { cleanNotifications, notificationsStore } from '@mantine/notifications';
import { notifyError, notifySuccess, notifyWaiting } from './notify';

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

  it('colours a notice by what it says: success green, waiting yellow, failure red', () => {
    const colorOf = (show: () => void) => {
      show();
      return state().notifications[0]!.color;
    };
    expect(colorOf(() => notifySuccess('Domain verified'))).toBe('green');
    expect(colorOf(() => notifyWaiting('Not verified yet', 'Some records are missing'))).toBe('yellow');
    expect(colorOf(() => notifyError('Failed to verify the domain'))).toBe('red');
  });
});
