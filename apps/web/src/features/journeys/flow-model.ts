import type { JourneyStep, JourneyStepKind } from '@lampstand/api/schemas/journeys';
import { stepTargets } from '@lampstand/api/shared/journey-steps';

/**
 * The editor's flow, pure functions over the shared step graph (`next`, a branch's `yes`/`no`; the
 * first step is the start). The editor shows it top to bottom: a chain of steps, a branch's two
 * paths side by side until the step where they meet again, then the chain goes on.
 */

/** Where a new step goes: on the arrow leaving `from` by `port` ('start' is the arrow into the first step). */
export interface Slot {
  /** A step's id, or 'start' for the arrow into the first step. */
  from: string;
  port: 'next' | 'yes' | 'no';
}

export type Block =
  | { kind: 'step'; step: JourneyStep; number: number }
  | { kind: 'branch'; step: JourneyStep & { kind: 'branch' }; number: number; yes: Block[]; no: Block[] }
  | {
      kind: 'slot';
      slot: Slot;
      /** The arrow ends the journey here. */
      end: boolean;
      /** The arrow leads to a step shown elsewhere (a journey drawn through the API). */
      goesTo?: number;
    };

const byId = (steps: JourneyStep[]) => new Map(steps.map((s) => [s.id, s]));

/** Every step reachable from `id`, itself included. */
function reachable(map: Map<string, JourneyStep>, id: string | null) {
  const out = new Set<string>();
  const stack = id ? [id] : [];
  while (stack.length) {
    const at = stack.pop()!;
    if (out.has(at) || !map.has(at)) continue;
    out.add(at);
    for (const t of stepTargets(map.get(at)!)) if (t) stack.push(t);
  }
  return out;
}

/**
 * Where a branch's two paths meet again: the first step both reach (one every other common step
 * comes after), or null when they end apart.
 */
export function meetingPoint(steps: JourneyStep[], branch: JourneyStep & { kind: 'branch' }): string | null {
  const map = byId(steps);
  const yes = reachable(map, branch.yes);
  const no = reachable(map, branch.no);
  const common = [...yes].filter((id) => no.has(id));
  return common.find((c) => common.every((o) => o === c || !reachable(map, o).has(c))) ?? null;
}

/** The steps in the order the editor shows them (the start first): 'Step N' is a step's place here. */
export function displayOrder(steps: JourneyStep[]): JourneyStep[] {
  const map = byId(steps);
  const seen = new Set<string>();
  const out: JourneyStep[] = [];
  const walk = (id: string | null, stop: string | null) => {
    let at = id;
    while (at && at !== stop && map.has(at) && !seen.has(at)) {
      const s = map.get(at)!;
      seen.add(at);
      out.push(s);
      if (s.kind === 'exit') return;
      if (s.kind === 'branch') {
        const meet = meetingPoint(steps, s);
        walk(s.yes, meet);
        walk(s.no, meet);
        at = meet;
      } else at = s.next;
    }
  };
  walk(steps[0]?.id ?? null, null);
  // Steps no path reaches (a journey saved through the API) keep their place at the end.
  for (const s of steps) if (!seen.has(s.id)) out.push(s);
  return out;
}

/** The flow as blocks: each step, a '+' slot after it, a branch's paths side by side. */
export function layout(steps: JourneyStep[]): Block[] {
  const map = byId(steps);
  const numbers = new Map(steps.map((s, i) => [s.id, i + 1]));
  const seen = new Set<string>();
  const walk = (id: string | null, stop: string | null, slot: Slot): Block[] => {
    const out: Block[] = [];
    let at = id;
    // null right after a branch: the arrows into the meeting step are the slots ending each path.
    let into: Slot | null = slot;
    for (;;) {
      const jumps = at !== null && at !== stop && seen.has(at);
      if (into) out.push({ kind: 'slot', slot: into, end: at === null, goesTo: jumps ? numbers.get(at!) : undefined });
      if (!at || at === stop || !map.has(at) || seen.has(at)) break;
      const s = map.get(at)!;
      seen.add(at);
      const number = numbers.get(at)!;
      if (s.kind === 'branch') {
        const meet = meetingPoint(steps, s);
        const yes = walk(s.yes, meet, { from: s.id, port: 'yes' });
        const no = walk(s.no, meet, { from: s.id, port: 'no' });
        out.push({ kind: 'branch', step: s, number, yes, no });
        if (meet === null) break;
        at = meet;
        into = null;
        continue;
      }
      out.push({ kind: 'step', step: s, number });
      if (s.kind === 'exit') break;
      into = { from: s.id, port: 'next' };
      at = s.next;
    }
    return out;
  };
  return walk(steps[0]?.id ?? null, null, { from: 'start', port: 'next' });
}

/** Steps no path reaches from the start. */
export function unreachable(steps: JourneyStep[]): JourneyStep[] {
  const r = reachable(byId(steps), steps[0]?.id ?? null);
  return steps.filter((s) => !r.has(s.id));
}

export function newStepId(steps: JourneyStep[]): string {
  const used = new Set(steps.map((s) => s.id));
  for (let n = steps.length + 1; ; n++) {
    const id = `step-${n}`;
    if (!used.has(id)) return id;
  }
}

/** A new step of a kind, with what it needs filled in plainly (a drawer then edits it). */
export function blankStep(kind: JourneyStepKind, id: string, target: string | null, listId?: number): JourneyStep {
  switch (kind) {
    case 'wait':
      return { id, kind, wait: { mode: 'duration', amount: 1, unit: 'days' }, next: target };
    case 'email':
      return {
        id,
        kind,
        name: 'New email',
        subject: '',
        content: '',
        templateId: null,
        operational: false,
        next: target,
      };
    case 'sms':
      return { id, kind, name: 'New text', body: '', operational: false, next: target };
    case 'add_to_list':
    case 'remove_from_list':
      return { id, kind, listId: listId ?? 0, next: target };
    case 'add_tag':
      return { id, kind, tag: '', next: target };
    case 'task':
      return {
        id,
        kind,
        title: 'Follow up with {{firstName}}',
        notes: '',
        dueInDays: 1,
        assigneeContactId: null,
        toGroupLeader: false,
        next: target,
      };
    case 'notify':
      return { id, kind, contactIds: [], subject: 'News from a journey', message: '', next: target };
    case 'branch':
      return { id, kind, condition: { kind: 'opened_previous_email' }, yes: target, no: target };
    case 'exit':
      return { id, kind };
  }
}

const targetOf = (s: JourneyStep, port: Slot['port']): string | null =>
  s.kind === 'exit' ? null : s.kind === 'branch' ? (port === 'no' ? s.no : s.yes) : s.next;

function retarget(s: JourneyStep, port: Slot['port'], to: string | null): JourneyStep {
  if (s.kind === 'exit') return s;
  if (s.kind === 'branch') return port === 'no' ? { ...s, no: to } : { ...s, yes: to };
  return { ...s, next: to };
}

/** The step a slot leads to now. */
export function slotTarget(steps: JourneyStep[], slot: Slot): string | null {
  if (slot.from === 'start') return steps[0]?.id ?? null;
  const s = steps.find((x) => x.id === slot.from);
  return s ? targetOf(s, slot.port) : null;
}

/** Put `step` (already pointing at the slot's target) on the slot's arrow; the result in display order. */
export function insertAt(steps: JourneyStep[], slot: Slot, step: JourneyStep): JourneyStep[] {
  const next =
    slot.from === 'start'
      ? [step, ...steps]
      : [...steps.map((s) => (s.id === slot.from ? retarget(s, slot.port, step.id) : s)), step];
  return displayOrder(next);
}

/** Steps an exit on this slot would cut off (none: an exit may go there). */
export function cutOffByExit(steps: JourneyStep[], slot: Slot): JourneyStep[] {
  const exit: JourneyStep = { id: newStepId(steps), kind: 'exit' };
  return unreachable(insertAt(steps, slot, exit)).filter((s) => s.id !== exit.id && !unreachable(steps).includes(s));
}

/**
 * Remove a step: arrows into it go where it went (a branch: its yes path; an exit: the end).
 * Steps only the removed branch's no path reached go too; they are returned to be named first.
 */
export function removeStep(steps: JourneyStep[], id: string): { steps: JourneyStep[]; alsoRemoved: JourneyStep[] } {
  const gone = steps.find((s) => s.id === id);
  if (!gone) return { steps, alsoRemoved: [] };
  const to = gone.kind === 'exit' ? null : gone.kind === 'branch' ? gone.yes : gone.next;
  const before = new Set(unreachable(steps).map((s) => s.id));
  const rewired = steps
    .filter((s) => s.id !== id)
    .map((s) => {
      let r = s;
      if (r.kind === 'branch') {
        if (r.yes === id) r = { ...r, yes: to };
        if (r.kind === 'branch' && r.no === id) r = { ...r, no: to };
        return r;
      }
      return r.kind !== 'exit' && r.next === id ? { ...r, next: to } : r;
    });
  // Removing the first step: the step it led to becomes the start.
  const ordered =
    steps[0]?.id === id && to
      ? [...rewired.filter((s) => s.id === to), ...rewired.filter((s) => s.id !== to)]
      : rewired;
  const lost = unreachable(ordered).filter((s) => !before.has(s.id));
  const kept = ordered.filter((s) => !lost.includes(s));
  return { steps: displayOrder(kept), alsoRemoved: lost };
}

/** Replace one step (edited in its drawer), keeping its arrows. */
export function replaceStep(steps: JourneyStep[], step: JourneyStep): JourneyStep[] {
  return steps.map((s) => (s.id === step.id ? step : s));
}

/** 'Step 3: the email has no content' → 3 (messages the server ties to a step by its number). */
export function stepNumberOf(message: string): number | null {
  const m = /^Step (\d+):/.exec(message);
  return m ? Number(m[1]) : null;
}

/** A server issue's path ('steps.2.condition') → the step's number (3). */
export function stepNumberOfPath(path: string): number | null {
  const m = /^steps\.(\d+)(\.|$)/.exec(path);
  return m ? Number(m[1]) + 1 : null;
}
