// The planner's fixed choices: statuses, default item types, colours and icons.

export const PLAN_STATUSES = ['draft', 'published', 'completed'] as const;
export const PLAN_STATUS_LABELS: Record<(typeof PLAN_STATUSES)[number], string> = {
  draft: 'Draft',
  published: 'Published',
  completed: 'Completed',
};
export const ASSIGNMENT_STATUSES = ['scheduled', 'confirmed', 'declined'] as const;
export const ASSIGNMENT_STATUS_LABELS: Record<(typeof ASSIGNMENT_STATUSES)[number], string> = {
  scheduled: 'Scheduled',
  confirmed: 'Confirmed',
  declined: 'Declined',
};

/** The item types every church starts with (seeded on its first use of the planner). */
export const DEFAULT_ITEM_TYPES = [
  { name: 'Welcome', color: 'teal', icon: 'hand' },
  { name: 'Song', color: 'indigo', icon: 'music' },
  { name: 'Prayer', color: 'grape', icon: 'pray' },
  { name: 'Scripture', color: 'orange', icon: 'book' },
  { name: 'Sermon', color: 'blue', icon: 'microphone' },
  { name: 'Offering', color: 'green', icon: 'gift' },
  { name: 'Announcement', color: 'cyan', icon: 'speakerphone' },
  { name: 'Benediction', color: 'violet', icon: 'sun' },
] as const;
export const ITEM_TYPE_COLORS = [
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'orange',
] as const;
export const ITEM_TYPE_ICONS = [
  'circle',
  'hand',
  'music',
  'pray',
  'book',
  'microphone',
  'gift',
  'speakerphone',
  'sun',
  'video',
  'users',
  'heart',
] as const;
