import { describe, expect, it } from 'vitest';
import { JOURNEY_STARTERS, journeyFieldsSchema, type JourneyStep } from '@lampstand/api/schemas/journeys';
import {
  blankStep,
  cutOffByExit,
  displayOrder,
  insertAt,
  layout,
  meetingPoint,
  removeStep,
  stepNumberOf,
  stepNumberOfPath,
  type Block,
} from './flow-model';

const guest = () => journeyFieldsSchema.parse(JOURNEY_STARTERS[0]!.fields).steps;

/** The blocks as short words: 'S1' a step, '+' a slot, '[yes | no]' a branch. */
function words(blocks: Block[]): string {
  return blocks
    .map((b) =>
      b.kind === 'slot'
        ? b.end
          ? '+end'
          : '+'
        : b.kind === 'step'
          ? `S${b.number}`
          : `S${b.number}[${words(b.yes)} | ${words(b.no)}]`,
    )
    .join(' ');
}

describe('the journey flow', () => {
  it('lays a chain out as steps with a slot before each and one at the end', () => {
    expect(words(layout(guest()))).toBe('+ S1 + S2 + S3 + S4 + S5 + S6 +end');
  });

  it('inserts a branch whose two paths meet again at the step that followed', () => {
    const steps = guest();
    const branch = blankStep('branch', 'b', 'wait-2d');
    const next = insertAt(steps, { from: 'call', port: 'next' }, branch);
    expect(next.map((s) => s.id)).toEqual(['welcome', 'call', 'b', 'wait-2d', 'hello-text', 'wait-5d', 'lunch']);
    expect(meetingPoint(next, next[2] as JourneyStep & { kind: 'branch' })).toBe('wait-2d');
    expect(words(layout(next))).toBe('+ S1 + S2 + S3[+ | +] S4 + S5 + S6 + S7 +end');
    // A text on the yes path only: the yes column holds it, both columns still meet at the wait.
    const sms = blankStep('sms', 'y1', 'wait-2d');
    const withYes = insertAt(next, { from: 'b', port: 'yes' }, sms);
    expect(withYes.map((s) => s.id).slice(2, 5)).toEqual(['b', 'y1', 'wait-2d']);
    expect(words(layout(withYes))).toBe('+ S1 + S2 + S3[+ S4 + | +] S5 + S6 + S7 + S8 +end');
    // The saved shape stays valid for the shared schema (no loop, every target exists).
    expect(journeyFieldsSchema.safeParse({ ...JOURNEY_STARTERS[0]!.fields, steps: withYes }).success).toBe(true);
  });

  it('numbers steps in the order they are shown, the start first', () => {
    const steps: JourneyStep[] = [
      { id: 'late', kind: 'exit' },
      { id: 'first', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 'late' },
    ];
    // The first step of the list is the start even when shown first already.
    expect(displayOrder(steps).map((s) => s.id)).toEqual(['late', 'first']);
    const inserted = insertAt(steps, { from: 'start', port: 'next' }, blankStep('email', 'e', 'late'));
    expect(inserted.map((s) => s.id)).toEqual(['e', 'late', 'first']);
  });

  it('refuses an exit that would cut steps off, allows one inside a branch path', () => {
    const steps = guest();
    expect(cutOffByExit(steps, { from: 'welcome', port: 'next' }).map((s) => s.id)).toEqual([
      'call',
      'wait-2d',
      'hello-text',
      'wait-5d',
      'lunch',
    ]);
    expect(cutOffByExit(steps, { from: 'lunch', port: 'next' })).toEqual([]);
    const withBranch = insertAt(steps, { from: 'call', port: 'next' }, blankStep('branch', 'b', 'wait-2d'));
    expect(cutOffByExit(withBranch, { from: 'b', port: 'no' })).toEqual([]);
  });

  it('removes a step by joining the arrows around it, and a branch with its no path', () => {
    const steps = guest();
    const { steps: without, alsoRemoved } = removeStep(steps, 'call');
    expect(alsoRemoved).toEqual([]);
    expect(without.find((s) => s.id === 'welcome')).toMatchObject({ next: 'wait-2d' });

    let b = insertAt(steps, { from: 'call', port: 'next' }, blankStep('branch', 'b', 'wait-2d'));
    b = insertAt(b, { from: 'b', port: 'no' }, blankStep('sms', 'no-text', 'wait-2d'));
    const removed = removeStep(b, 'b');
    expect(removed.alsoRemoved.map((s) => s.id)).toEqual(['no-text']);
    expect(removed.steps.map((s) => s.id)).toEqual(['welcome', 'call', 'wait-2d', 'hello-text', 'wait-5d', 'lunch']);

    // Removing the start: the next step becomes the start.
    expect(removeStep(steps, 'welcome').steps[0]!.id).toBe('call');
  });

  it('reads which step a server message is about', () => {
    expect(stepNumberOf('Step 3: the email has no content')).toBe(3);
    expect(stepNumberOf('Trigger: the list was deleted')).toBeNull();
    expect(stepNumberOfPath('steps.2.condition')).toBe(3);
    expect(stepNumberOfPath('steps')).toBeNull();
  });
});
