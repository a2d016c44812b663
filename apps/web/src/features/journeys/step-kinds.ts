import {
  IconArrowsSplit,
  IconBell,
  IconClipboardCheck,
  IconClock,
  IconDoorExit,
  IconMail,
  IconMessage,
  IconPlaylistAdd,
  IconPlaylistX,
  IconTag,
  type Icon,
} from '@tabler/icons-react';
import type { BranchCondition, JourneyStepKind } from '@lampstand/api/schemas/journeys';

/** Each kind of step as the '+' menu and the step's card name it. */
export const STEP_KINDS: { kind: JourneyStepKind; label: string; icon: Icon; color: string }[] = [
  { kind: 'wait', label: 'Wait', icon: IconClock, color: 'gray' },
  { kind: 'email', label: 'Send email', icon: IconMail, color: 'indigo' },
  { kind: 'sms', label: 'Send SMS', icon: IconMessage, color: 'teal' },
  { kind: 'add_to_list', label: 'Add to list', icon: IconPlaylistAdd, color: 'grape' },
  { kind: 'remove_from_list', label: 'Remove from list', icon: IconPlaylistX, color: 'grape' },
  { kind: 'add_tag', label: 'Add tag', icon: IconTag, color: 'grape' },
  { kind: 'task', label: 'Follow-up task', icon: IconClipboardCheck, color: 'orange' },
  { kind: 'notify', label: 'Notify staff', icon: IconBell, color: 'orange' },
  { kind: 'branch', label: 'Branch', icon: IconArrowsSplit, color: 'cyan' },
  { kind: 'exit', label: 'Exit', icon: IconDoorExit, color: 'red' },
];

export const stepKind = (kind: JourneyStepKind) => STEP_KINDS.find((k) => k.kind === kind)!;

export const CONDITION_LABELS: Record<BranchCondition['kind'], string> = {
  opened_previous_email: 'Opened the previous email',
  clicked_previous_email: 'Clicked in the previous email',
  has_tag: 'Has a tag',
  on_list: 'Is on a list',
  gave_within: 'Gave in the last … days',
  replied_by_text: 'Replied by text',
};

export const WEEKDAY_OPTIONS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map(
  (label, i) => ({ value: String(i), label }),
);
