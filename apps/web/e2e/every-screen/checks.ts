import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { animationsDone, expectAccessible, expectUncovered as uncovered, screenshot, toast } from '../helpers';

/**
 * What the pass checked, printed when it ends: the count to compare with the three files it
 * replaced (widths, a11y-menus and a11y-dialogs), so fewer page loads never hides fewer checks.
 */
export const tally = { screenWidths: 0, axe: 0, menus: 0, dialogs: 0, uncovered: 0 };

/** expectAccessible, counted. */
export async function axe(page: Page, o: { notices?: boolean } = {}): Promise<void> {
  tally.axe++;
  await expectAccessible(page, o);
}

/** What the screen shows now (a notice stays where it is, as a full-page shot would not keep it). */
export async function viewShot(page: Page, name: string) {
  await screenshot(page, name, { fullPage: false });
}

/** Opens the menu behind `button`, checks it with axe (its items found by role), and closes it. */
export async function checkMenu(page: Page, button: Locator, item: string, shot?: string) {
  tally.menus++;
  await button.click();
  const menu = page.getByRole('menu');
  await menu.getByRole('menuitem', { name: item }).waitFor();
  await axe(page);
  if (shot) await screenshot(page, shot);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
}

/** The dialog is open, named, and its close button has a name; then axe finds nothing serious. */
export async function checkDialog(page: Page, name: string | RegExp): Promise<Locator> {
  tally.dialogs++;
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Close', exact: true }).waitFor();
  await axe(page);
  return dialog;
}

export async function closeDialog(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Opens a form's dialog with the `open` button and sends the form empty with `submit`: the dialog
 * shows its errors (`errors`: where they show), and axe finds nothing serious; then closes it.
 */
export async function checkEmptyForm(
  page: Page,
  form: { open: string; dialog: string; submit: string; errors?: string },
): Promise<void> {
  await page.getByRole('button', { name: form.open }).first().click();
  const dialog = await checkDialog(page, form.dialog);
  await dialog.getByRole('button', { name: form.submit }).click();
  await dialog
    .locator(form.errors ?? '.mantine-InputWrapper-error')
    .first()
    .waitFor();
  await axe(page);
  await closeDialog(dialog);
}

/** No other element lies over the control (expectUncovered in helpers.ts), counted. */
export async function expectUncovered(control: Locator) {
  tally.uncovered++;
  await uncovered(control);
}

/** No badge's text is cut (an ellipsis or a clipped label). */
export async function expectWholeBadges(page: Page, where: string) {
  const cut = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.mantine-Badge-root, .mantine-Badge-label'))
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent),
  );
  expect(cut, `${where}: badges cut`).toEqual([]);
}

/** Settings' Save: a notice with a title and a description (the spec's words). */
export async function showNotice(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await toast(page, 'Your campaign footer and times now use these settings.').waitFor();
  await animationsDone(page);
}
