import type { BranchCondition, JourneyStep, JourneyWait } from '../schemas/journeys/steps.js';
import { CONTACT_SOURCE_LABELS, type JourneyTrigger } from '../schemas/journeys/triggers.js';
import { stepTargets } from './journey-steps.js';

// The journey in words (cards, the editor's summary, the activation dialog). The server fills
// `triggerText` and `summary` with the same functions the editor uses while a journey is edited.

/** Names of the things a journey refers to; undefined when unknown (deleted, another church's). */
export interface JourneyNames {
  list?(id: number): string | undefined;
  page?(id: number): string | undefined;
  project?(id: number): string | undefined;
  fund?(id: number): string | undefined;
  group?(id: number): string | undefined;
}

const named = (name: string | undefined) => (name ? `*${name}*` : 'a deleted one');

export function describeTrigger(trigger: JourneyTrigger, names: JourneyNames = {}): string {
  switch (trigger.kind) {
    case 'list_added':
      return trigger.listId
        ? `When someone is added to ${named(names.list?.(trigger.listId))}`
        : 'When someone is added to a list (not chosen yet)';
    case 'signup_confirmed':
      return trigger.pageId
        ? `When someone signs up on ${named(names.page?.(trigger.pageId))}`
        : 'When someone signs up on any landing page';
    case 'donation_succeeded': {
      const what = trigger.firstGiftOnly ? 'gives for the first time' : 'gives';
      const to = trigger.projectId
        ? ` to ${named(names.project?.(trigger.projectId))}`
        : trigger.fundId
          ? ` to ${named(names.fund?.(trigger.fundId))}`
          : '';
      return `When someone ${what}${to}`;
    }
    case 'contact_created':
      return trigger.source
        ? `When a contact is created from ${CONTACT_SOURCE_LABELS[trigger.source]}`
        : 'When a contact is created';
    case 'date':
      return 'On each birthday at 9:00';
    case 'keyword':
      return trigger.keyword ? `When someone texts ${trigger.keyword.toUpperCase()}` : 'When someone texts a keyword';
    case 'event_registered':
      return trigger.eventId ? 'When someone registers for the chosen event' : 'When someone registers for an event';
    case 'event_attended':
      return trigger.eventId ? 'When someone attends the chosen event' : 'When someone attends an event (checked in)';
    case 'event_missed':
      return trigger.eventId
        ? 'When someone registered does not attend the chosen event'
        : 'When someone registered does not attend an event (no check-in by its end)';
    case 'checked_in':
      return trigger.firstTimeOnly
        ? 'When a family checks children in for the first time'
        : trigger.weeksInARow
          ? `When a family has checked children in ${trigger.weeksInARow} weeks in a row`
          : 'When a family checks children in';
    case 'group_joined':
      return trigger.groupId
        ? `When someone joins ${named(names.group?.(trigger.groupId))}`
        : 'When someone joins a group';
    case 'group_join_requested':
      return trigger.groupId
        ? `When someone asks to join ${named(names.group?.(trigger.groupId))}`
        : 'When someone asks to join a group';
    case 'group_missed': {
      const of = trigger.groupId ? named(names.group?.(trigger.groupId)) : 'their group';
      return `When a member misses ${plural(trigger.count, 'meetings')} of ${of} in a row`;
    }
    case 'manual':
      return 'When you enrol people';
  }
}

const plural = (n: number, unit: string) => `${n} ${unit.replace(/s$/, '')}${n === 1 ? '' : 's'}`;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function describeWait(wait: JourneyWait): string {
  if (wait.mode === 'before_event') return `wait until ${plural(wait.amount, wait.unit)} before the event`;
  return wait.mode === 'duration'
    ? `wait ${plural(wait.amount, wait.unit)}`
    : `wait until ${WEEKDAYS[wait.weekday]} ${wait.time}`;
}

export function describeCondition(c: BranchCondition, names: JourneyNames = {}): string {
  switch (c.kind) {
    case 'opened_previous_email':
      return 'opened the previous email';
    case 'clicked_previous_email':
      return 'clicked in the previous email';
    case 'has_tag':
      return `has the tag ${c.tag}`;
    case 'on_list':
      return `is on ${named(names.list?.(c.listId))}`;
    case 'gave_within':
      return `gave in the last ${plural(c.days, 'days')}`;
    case 'replied_by_text':
      return 'replied by text';
  }
}

export function describeStep(step: JourneyStep, names: JourneyNames = {}): string {
  switch (step.kind) {
    case 'wait':
      return describeWait(step.wait);
    case 'email':
      return `send *${step.name}*`;
    case 'sms':
      return `text *${step.name}*`;
    case 'add_to_list':
      return `add to ${named(names.list?.(step.listId))}`;
    case 'remove_from_list':
      return `remove from ${named(names.list?.(step.listId))}`;
    case 'add_tag':
      return `tag ${step.tag}`;
    case 'task':
      return `ask ${step.toGroupLeader ? 'their group’s leader' : 'staff'} to *${step.title}*`;
    case 'notify':
      return `tell staff *${step.subject}*`;
    case 'branch':
      return step.condition ? `if they ${describeCondition(step.condition, names)}` : 'branch (no condition yet)';
    case 'exit':
      return 'leave the journey';
  }
}

/**
 * One sentence for the whole journey: the trigger, then the steps along the path; a branch says its
 * yes side, then its no side, then what follows where the two meet again: 'When someone signs up
 * on *Easter at Grace*: send *Welcome*, if they opened the previous email: tag engaged; if not: go
 * on, then text *Pastor's hello*.'
 */
export function describeJourney(
  j: { trigger: JourneyTrigger; steps: JourneyStep[] },
  names: JourneyNames = {},
): string {
  const byId = new Map(j.steps.map((s) => [s.id, s]));
  const reach = (id: string | null) => {
    const out = new Set<string>();
    const stack = id ? [id] : [];
    while (stack.length) {
      const at = stack.pop()!;
      if (out.has(at) || !byId.has(at)) continue;
      out.add(at);
      for (const t of stepTargets(byId.get(at)!)) if (t) stack.push(t);
    }
    return out;
  };
  /** Where a branch's two sides meet again: the first step both reach. */
  const meeting = (b: Extract<JourneyStep, { kind: 'branch' }>) => {
    const no = reach(b.no);
    const common = [...reach(b.yes)].filter((id) => no.has(id));
    return common.find((c) => common.every((o) => o === c || !reach(o).has(c))) ?? null;
  };
  const seen = new Set<string>();
  const path = (id: string | null, stop: string | null): string[] => {
    const out: string[] = [];
    let at = id;
    while (at && at !== stop && byId.has(at) && !seen.has(at)) {
      seen.add(at);
      const s = byId.get(at)!;
      if (s.kind === 'branch') {
        const meet = meeting(s);
        const yes = path(s.yes, meet);
        const no = path(s.no, meet);
        out.push(`${describeStep(s, names)}: ${yes.join(', ') || 'go on'}; if not: ${no.join(', ') || 'go on'}`);
        const rest = meet === null ? [] : path(meet, stop);
        if (rest.length) out.push(`then ${rest[0]}`, ...rest.slice(1));
        return out;
      }
      out.push(describeStep(s, names));
      at = s.kind === 'exit' ? null : s.next;
    }
    return out;
  };
  const steps = path(j.steps[0]?.id ?? null, null);
  return `${describeTrigger(j.trigger, names)}: ${steps.length ? steps.join(', ') : 'nothing yet'}.`;
}

/** The person a journey's words are shown for (its summary, as previews elsewhere fill merge tags). */
export interface SampleValues {
  firstName: string;
  lastName: string;
  churchName: string;
}

/** {{firstName}}, {{lastName}} and {{churchName}} in a journey's words, filled from a sample person. */
export function fillSample(text: string, sample: SampleValues): string {
  return text.replace(/\{\{\s*(firstName|lastName|churchName)\s*\}\}/g, (_, key: string) =>
    sample[key as keyof SampleValues].trim(),
  );
}
