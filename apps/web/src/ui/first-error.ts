/** What marks a problem on a form: an input Mantine flagged, or an alert about a group of fields. */
const PROBLEM = '[aria-invalid="true"], [data-form-error]';

/**
 * After a save that failed on the form's own fields: the first problem in `root` is scrolled to the
 * middle of whatever scrolls it (a dialog's body, the page) and focused, so the message beside it is
 * read where the person is looking. It waits a few frames for the errors (and any section they
 * open) to be drawn.
 */
export function showFirstError(root: HTMLElement | null, framesLeft = 10): void {
  requestAnimationFrame(() => {
    const problem = root?.querySelector<HTMLElement>(PROBLEM);
    if (!problem || problem.getClientRects().length === 0) {
      if (framesLeft > 0) showFirstError(root, framesLeft - 1);
      return;
    }
    problem.scrollIntoView({ block: 'center' });
    if (problem.matches('input, button, textarea, select')) problem.focus({ preventScroll: true });
  });
}
