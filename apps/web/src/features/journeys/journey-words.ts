import type { EntryRule, JourneyGoal, JourneyStatus } from '@lampstand/api/schemas/journeys';
import type { JourneyNames } from '@lampstand/api/shared/journeys';

export const STATUS_LABELS: Record<JourneyStatus, string> = {
  draft: 'Draft',
  active: 'Active',
  paused: 'Paused',
  archived: 'Archived',
};
export const STATUS_COLORS: Record<JourneyStatus, string> = {
  draft: 'gray',
  active: 'green',
  paused: 'yellow',
  archived: 'dark',
};

export function entryWords(rule: EntryRule): string {
  switch (rule.kind) {
    case 'once':
      return 'Once per person';
    case 'again_after':
      return `Again after ${rule.days} ${rule.days === 1 ? 'day' : 'days'}`;
    case 'every_time':
      return 'Every time';
  }
}

export function goalWords(goal: JourneyGoal, names: JourneyNames): string {
  if (!goal) return 'No goal';
  switch (goal.kind) {
    case 'joined_list':
      return `Goal: joined ${names.list?.(goal.listId) ?? 'a list'}`;
    case 'gave':
      return 'Goal: gave';
    case 'tag_added':
      return `Goal: tagged ${goal.tag}`;
    case 'renewed_giving':
      return 'Goal: set up their recurring gift again';
  }
}
