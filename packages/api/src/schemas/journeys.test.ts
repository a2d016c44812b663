import { describe, expect, it } from 'vitest';
import { createJourneySchema, JOURNEY_STARTERS } from './journeys.js';
import { describeJourney } from '../shared/journeys.js';

const base = { name: 'Welcome', trigger: { kind: 'manual' } };
const messages = (input: unknown) => {
  const r = createJourneySchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('journey shape', () => {
  it('accepts every starter', () => {
    for (const s of JOURNEY_STARTERS) expect(messages(s.fields)).toEqual([]);
  });

  it('names the step of a wait over 365 days, a branch with no condition and a loop', () => {
    expect(
      messages({ ...base, steps: [{ id: 'a', kind: 'wait', wait: { mode: 'duration', amount: 53, unit: 'weeks' } }] }),
    ).toEqual(['Step 1: a wait can be at most 365 days']);
    expect(
      messages({
        ...base,
        steps: [
          { id: 'a', kind: 'add_tag', tag: 'x', next: 'b' },
          { id: 'b', kind: 'branch', condition: null, yes: null, no: null },
        ],
      }),
    ).toEqual(['Step 2: the branch has no condition']);
    expect(
      messages({
        ...base,
        steps: [
          { id: 'a', kind: 'add_tag', tag: 'x', next: 'b' },
          { id: 'b', kind: 'branch', condition: { kind: 'replied_by_text' }, yes: 'c', no: null },
          { id: 'c', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 'a' },
        ],
      }),
    ).toEqual(['Step 1: the steps lead back to it (a loop)']);
  });

  it('refuses more than 50 steps and a step that leads nowhere known', () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ id: `s${i}`, kind: 'add_tag', tag: 't' }));
    expect(messages({ ...base, steps: many })).toEqual(['Step 51: a journey can have at most 50 steps']);
    expect(messages({ ...base, steps: [{ id: 'a', kind: 'add_tag', tag: 'x', next: 'zz' }] })).toEqual([
      'Step 1: leads to a step that does not exist',
    ]);
  });

  it('lets both sides of a branch meet again', () => {
    expect(
      messages({
        ...base,
        steps: [
          { id: 'b', kind: 'branch', condition: { kind: 'has_tag', tag: 'x' }, yes: 'y', no: 'end' },
          { id: 'y', kind: 'add_tag', tag: 'y', next: 'end' },
          { id: 'end', kind: 'exit' },
        ],
      }),
    ).toEqual([]);
  });
});

describe('describeJourney', () => {
  it('says the journey in one sentence with the names of what it refers to', () => {
    const guest = createJourneySchema.parse({
      ...JOURNEY_STARTERS[0]!.fields,
      trigger: { kind: 'signup_confirmed', pageId: 7 },
    });
    expect(describeJourney(guest, { page: (id) => (id === 7 ? 'Easter at Grace' : undefined) })).toBe(
      "When someone signs up on *Easter at Grace*: send *Welcome*, ask staff to *Call {{firstName}} {{lastName}}*, wait 2 days, text *Pastor's hello*, wait 5 days, send *Newcomers' lunch*.",
    );
  });
});

describe('describeJourney with a branch', () => {
  it('says both sides of a branch, then what follows where they meet', () => {
    const guest = createJourneySchema.parse(JOURNEY_STARTERS[0]!.fields);
    const steps = [...guest.steps];
    steps[2] = { ...steps[2]!, next: 'b' } as (typeof steps)[number];
    steps.splice(3, 0, {
      id: 'b',
      kind: 'branch',
      condition: { kind: 'opened_previous_email' },
      yes: 'tag',
      no: 'hello-text',
    });
    steps.splice(4, 0, { id: 'tag', kind: 'add_tag', tag: 'engaged', next: 'hello-text' });
    expect(describeJourney({ ...guest, steps })).toBe(
      "When someone signs up on any landing page: send *Welcome*, ask staff to *Call {{firstName}} {{lastName}}*, wait 2 days, if they opened the previous email: tag engaged; if not: go on, then text *Pastor's hello*, wait 5 days, send *Newcomers' lunch*.",
    );
  });
});
