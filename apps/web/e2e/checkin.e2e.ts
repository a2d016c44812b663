import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, screenshot, signIn, startE2E, toast, uniqueName } from './helpers';

// Children's check-in: Settings → Check-in sets up a room and stations; a paired station (its own
// browser, no staff login) checks a new family in and opens its labels; a room station picks up;
// both keep working without the network, a reload included (the station's service worker).
browserDescribe(describe)('Check-in', async () => {
  const e2e = await startE2E();
  const church = await registerChurch(e2e.app.url, uniqueName('Cedar Church '));

  async function pair(code: string, width: number): Promise<Page> {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto('/station');
    await page.getByRole('heading', { name: 'Pair this station' }).waitFor();
    await page.getByRole('textbox', { name: 'Pairing code' }).fill('WRONG123');
    await page.getByRole('button', { name: 'Pair station' }).click();
    await page
      .getByText(/pairing code/i)
      .nth(1)
      .waitFor();
    await page.getByRole('textbox', { name: 'Pairing code' }).fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Pair station' }).click();
    return page;
  }

  /**
   * A station ready to lose the network: its service worker active (the page and its files kept),
   * and `text` in the bundle it keeps in IndexedDB.
   */
  async function readyOffline(p: Page, text: string): Promise<void> {
    await p.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const kept = () =>
      p.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open('lampstand-station', 1);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(new Error('IndexedDB'));
        });
        const bundle = await new Promise<unknown>((resolve) => {
          const req = db.transaction('kv').objectStore('kv').get('bundle');
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => resolve(null);
        });
        db.close();
        return JSON.stringify(bundle ?? null);
      });
    await expect.poll(kept, { timeout: 30_000 }).toContain(text);
  }

  it('sets up, pairs, checks a new family in, prints labels and picks up with the code', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/settings/check-in' });
    await page.getByRole('heading', { name: 'Rooms and classes' }).waitFor();

    // A room by age, with a capacity.
    await page.getByRole('button', { name: 'Add room' }).click();
    const roomDialog = page.getByRole('dialog', { name: 'Add room' });
    await roomDialog.getByRole('textbox', { name: 'Room name' }).fill('Kids Room');
    await roomDialog.getByRole('textbox', { name: 'From age (years)' }).fill('0');
    await roomDialog.getByRole('textbox', { name: 'To age (years)' }).fill('12');
    await roomDialog.getByRole('textbox', { name: 'Capacity' }).fill('20');
    await expectAccessible(page);
    await roomDialog.getByRole('button', { name: 'Add room' }).click();
    await toast(page, 'Room added').waitFor();
    await page.getByText('Ages 0–12 · Capacity 20').waitFor();

    // A self station: its one-time pairing code.
    await page.getByRole('textbox', { name: 'Station name' }).fill('Lobby kiosk');
    await page.getByRole('button', { name: 'Add station' }).click();
    const codeDialog = page.getByRole('dialog', { name: 'Pair Lobby kiosk' });
    const selfCode = (await codeDialog.getByTestId('pairing-code').textContent())!.trim();
    expect(selfCode).toMatch(/^[A-Z0-9]{8}$/);
    await expectAccessible(page);
    await codeDialog.getByRole('button', { name: 'Close' }).click();

    // A room station for the room.
    await page.getByRole('textbox', { name: 'Station name' }).fill('Kids Room door');
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: /^Room/ }).click();
    await page.getByRole('combobox', { name: 'Room', exact: true }).click();
    await page.getByRole('option', { name: 'Kids Room' }).click();
    await page.getByRole('button', { name: 'Add station' }).click();
    const roomCode = (await page
      .getByRole('dialog', { name: 'Pair Kids Room door' })
      .getByTestId('pairing-code')
      .textContent())!.trim();
    await page.getByRole('dialog', { name: 'Pair Kids Room door' }).getByRole('button', { name: 'Close' }).click();
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      // Nothing wider than the phone: the forms stack (once the shell has settled at the new width).
      await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width);
      await page.getByRole('heading', { name: 'Stations' }).scrollIntoViewIfNeeded();
      await screenshot(page, `checkin-settings-${width}`);
    }

    // The self station at 390 px: a first-time family with two children, one with an allergy.
    const kiosk = await pair(selfCode, 390);
    await kiosk.getByRole('heading', { name: 'Welcome! Check in' }).waitFor();
    await expectAccessible(kiosk);
    await screenshot(kiosk, 'checkin-station-self-390');
    await kiosk.getByRole('button', { name: 'New here? Add your family' }).click();
    await kiosk.getByRole('textbox', { name: 'First name' }).fill('Dana');
    await kiosk.getByRole('textbox', { name: 'Last name' }).fill('Rivers');
    await kiosk.getByRole('textbox', { name: 'Mobile phone' }).fill('(555) 010-4477');
    await kiosk.getByRole('textbox', { name: 'Child 1 name' }).fill('Mia Rivers');
    await kiosk.getByLabel('Child 1 birth date').fill('2021-03-04');
    await kiosk.getByRole('textbox', { name: 'Child 1 allergies' }).fill('Peanuts');
    await kiosk.getByRole('button', { name: 'Add another child' }).click();
    await kiosk.getByRole('textbox', { name: 'Child 2 name' }).fill('Leo Rivers');
    await kiosk.getByLabel('Child 2 birth date').fill('2019-08-10');
    await expectAccessible(kiosk);
    await screenshot(kiosk, 'checkin-station-new-family-390');
    await kiosk.getByRole('button', { name: 'Add family' }).click();
    await kiosk.getByText('Allergies: Peanuts').waitFor();
    const miaRoom = kiosk.getByRole('combobox', { name: 'Room for Mia Rivers' });
    expect(await miaRoom.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)).toBe('Kids Room');
    await screenshot(kiosk, 'checkin-station-family-390');
    await kiosk.getByRole('button', { name: 'Check in both' }).click();
    const code = (await kiosk.getByTestId('security-code').textContent())!.trim();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}$/);
    await expectAccessible(kiosk);
    await screenshot(kiosk, 'checkin-station-done-390');
    const pdfLink = kiosk.getByRole('link', { name: 'Open labels (PDF)' });
    const pdf = await kiosk.request.get((await pdfLink.getAttribute('href'))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // The family is found again by its phone's last four digits, both children checked in.
    await kiosk.getByRole('button', { name: 'Next family' }).click();
    await kiosk.getByRole('textbox', { name: /Last 4 digits/ }).fill('4477');
    await kiosk.getByRole('button', { name: 'Find' }).click();
    await kiosk.getByRole('button', { name: /Rivers/ }).click();
    await kiosk.getByRole('button', { name: 'Everyone is checked in' }).waitFor();
    // Or by the family's QR card: the camera (this browser has none, and says so), or the card's code typed.
    const rivers = (await (await kiosk.request.get('/api/check-in/families?phone=4477')).json()).families[0];
    const card = (await church.client.post(`/api/check-in/families/${rivers.id}/card`)).body.token;
    await kiosk.getByRole('button', { name: 'Back to search' }).click();
    await kiosk.getByRole('button', { name: 'Scan card' }).click();
    await kiosk
      .getByRole('alert')
      .filter({ hasText: 'No camera' })
      .or(kiosk.getByLabel(/Camera: hold/))
      .waitFor();
    await kiosk.getByRole('textbox', { name: 'Card code' }).fill(card);
    await expectAccessible(kiosk);
    await kiosk.getByRole('button', { name: 'Find card' }).click();
    await kiosk.getByRole('button', { name: /Dana Rivers/ }).click();
    await kiosk.getByRole('button', { name: 'Everyone is checked in' }).waitFor();

    // The room station at 1024 px: the roster with codes; a wrong code refused; the right one picks up.
    const door = await pair(roomCode, 1024);
    await door.getByRole('heading', { name: 'Kids Room door' }).waitFor();
    await door.getByRole('region', { name: 'Mia Rivers' }).getByText('Allergies: Peanuts').waitFor();
    await door.getByText('Here: 2 of 20').waitFor();
    await expectAccessible(door);
    await screenshot(door, 'checkin-station-room-1024');
    await door.getByRole('button', { name: 'Check out Mia Rivers' }).click();
    const pickup = door.getByRole('dialog', { name: 'Pick up Mia Rivers' });
    const wrong = code === 'ZZZZ' ? 'YYYY' : 'ZZZZ';
    await pickup.getByRole('textbox', { name: /Security code/ }).fill(wrong);
    await pickup.getByRole('button', { name: 'Pick up Mia Rivers' }).click();
    await pickup.getByText('That security code does not match this child').waitFor();
    await expectAccessible(door);
    await screenshot(door, 'checkin-station-wrong-code-1024');
    await pickup.getByRole('textbox', { name: /Security code/ }).fill(code.toLowerCase());
    await pickup.getByRole('button', { name: 'Pick up Mia Rivers' }).click();
    await toast(door, 'Mia Rivers picked up').waitFor();
    await door.getByText('Here: 1 of 20').waitFor();
    await door.getByText('Picked up: 1').waitFor();

    // Offline: the kiosk loses the network and is reloaded; its service worker still opens the
    // station, which finds the family in the bundle it keeps and checks Mia in again with a code from
    // its reserved block, then adds a first-time family; when the network returns all is sent.
    await kiosk.reload();
    await readyOffline(kiosk, 'Mia Rivers');
    await kiosk.context().setOffline(true);
    await kiosk.reload();
    await kiosk.getByRole('heading', { name: 'Welcome! Check in' }).waitFor();
    await kiosk.getByRole('textbox', { name: /Last 4 digits/ }).fill('4477');
    await kiosk.getByRole('button', { name: 'Find' }).click();

    await kiosk.getByRole('button', { name: /Rivers/ }).click();
    await kiosk.getByRole('button', { name: 'Check in Mia Rivers' }).click();
    await kiosk.getByText('No network: this check-in is sent when it returns.').waitFor();
    const offlineCode = (await kiosk.getByTestId('security-code').textContent())!.trim();
    expect(offlineCode).not.toBe(code);
    await kiosk.getByRole('button', { name: 'Next family' }).click();
    await kiosk.getByRole('button', { name: 'New here? Add your family' }).click();
    await kiosk.getByRole('textbox', { name: 'First name' }).fill('Sam');
    await kiosk.getByRole('textbox', { name: 'Last name' }).fill('Oak');
    await kiosk.getByRole('textbox', { name: 'Mobile phone' }).fill('12');
    await kiosk.getByRole('textbox', { name: 'Child 1 name' }).fill('Ivy Oak');
    await kiosk.getByLabel('Child 1 birth date').fill('2022-01-15');
    await kiosk.getByRole('button', { name: 'Add family' }).click();
    // Checked on the station with the server's own rules.
    await kiosk.getByText('Please enter a valid phone number').waitFor();
    await kiosk.getByRole('textbox', { name: 'Mobile phone' }).fill('(555) 010-5566');
    await kiosk.getByRole('button', { name: 'Add family' }).click();
    await kiosk.getByRole('button', { name: 'Check in Ivy Oak' }).click();
    const ivyCode = (await kiosk.getByTestId('security-code').textContent())!.trim();
    expect([code, offlineCode]).not.toContain(ivyCode);
    await kiosk.getByText('1 new family and 2 check-ins are saved on this station').waitFor();
    await expectAccessible(kiosk);
    await screenshot(kiosk, 'checkin-station-offline-390');
    await kiosk.context().setOffline(false);
    await kiosk.getByText('Working offline').waitFor({ state: 'detached' });
    await door.reload();
    await door.getByText('Here: 3 of 20').waitFor();
    await door.getByRole('region', { name: 'Mia Rivers' }).getByText(offlineCode).waitFor();
    await door.getByRole('region', { name: 'Ivy Oak' }).getByText(ivyCode).waitFor();

    // The room station without the network: the children it keeps, a pickup checked by the code.
    await readyOffline(door, 'Ivy Oak');
    await door.context().setOffline(true);
    await door.reload();
    await door.getByText('Here: 3 of 20').waitFor();
    await door.getByRole('button', { name: 'Check out Ivy Oak' }).click();
    const offlinePickup = door.getByRole('dialog', { name: 'Pick up Ivy Oak' });
    await offlinePickup.getByRole('textbox', { name: /Security code/ }).fill(ivyCode === 'ZZZZ' ? 'YYYY' : 'ZZZZ');
    await offlinePickup.getByRole('button', { name: 'Pick up Ivy Oak' }).click();
    await offlinePickup.getByText('That security code does not match this child').waitFor();
    await offlinePickup.getByRole('textbox', { name: /Security code/ }).fill(ivyCode);
    await offlinePickup.getByRole('button', { name: 'Pick up Ivy Oak' }).click();
    await door.getByText('1 pickup is saved on this station').waitFor();
    await door.getByText('Here: 2 of 20').waitFor();
    await expectAccessible(door);
    await screenshot(door, 'checkin-station-room-offline-1024');
    await door.context().setOffline(false);
    await door.getByText('Working offline').waitFor({ state: 'detached' });
    await door.reload();
    await door.getByText('Picked up: 2').waitFor();

    // Staff signed in on /station pick any room, and may pick up without the code, saying why.
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.goto('/station');
    await page.getByRole('combobox', { name: 'Room' }).selectOption({ label: 'Kids Room' });
    await page.getByRole('button', { name: 'Check out Leo Rivers' }).click();
    const staffPickup = page.getByRole('dialog', { name: 'Pick up Leo Rivers' });
    await staffPickup.getByRole('button', { name: 'Pick up without the code (staff)' }).click();
    await staffPickup.getByRole('button', { name: 'Pick up Leo Rivers' }).click();
    await staffPickup.getByText('Say why the child is picked up without the code').waitFor();
    await expectAccessible(page);
    await staffPickup
      .getByRole('textbox', { name: /Why is the child picked up/ })
      .fill('Grandmother, known to staff; tag lost');
    await staffPickup.getByRole('button', { name: 'Pick up Leo Rivers' }).click();
    await toast(page, 'Leo Rivers picked up').waitFor();
    await screenshot(page, 'checkin-station-staff-1024');
  }, 180_000); // a long flow (set-up, two stations, online and offline): generous on a busy machine
});
