import type { JourneyFieldsInput } from './journey.js';

// The ready journeys a church starts from. Content is plain and editable; anything a
// church must choose (a list, a page) is left open and activation asks for it.

export interface JourneyStarter {
  key: string;
  name: string;
  description: string;
  fields: JourneyFieldsInput;
}

export const JOURNEY_STARTERS: JourneyStarter[] = [
  {
    key: 'first-time-guest',
    name: 'Welcome a first-time guest',
    description: 'A welcome that day, a text from a pastor two days later, an invitation a week later, and a call.',
    fields: {
      name: 'Welcome a first-time guest',
      trigger: { kind: 'signup_confirmed', pageId: null },
      entryRule: { kind: 'once' },
      steps: [
        {
          id: 'welcome',
          kind: 'email',
          name: 'Welcome',
          subject: 'Welcome to {{churchName}}',
          content:
            '<p>Hello {{firstName}},</p><p>Thank you for visiting {{churchName}}. We are so glad you came, and we would love to see you again this Sunday.</p>',
          next: 'call',
        },
        {
          id: 'call',
          kind: 'task',
          title: 'Call {{firstName}} {{lastName}}',
          notes: 'A first-time guest: say hello and ask how we can help.',
          dueInDays: 2,
          next: 'wait-2d',
        },
        { id: 'wait-2d', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'days' }, next: 'hello-text' },
        {
          id: 'hello-text',
          kind: 'sms',
          name: "Pastor's hello",
          body: 'Hi {{firstName}}, it was great to have you at {{churchName}}. Anything we can pray for? Just reply.',
          next: 'wait-5d',
        },
        { id: 'wait-5d', kind: 'wait', wait: { mode: 'duration', amount: 5, unit: 'days' }, next: 'lunch' },
        {
          id: 'lunch',
          kind: 'email',
          name: "Newcomers' lunch",
          subject: 'Join us for lunch',
          content:
            '<p>Hello {{firstName}},</p><p>Once a month we share lunch after the service with people who are new to {{churchName}}. We would love you to come as our guest.</p>',
          next: null,
        },
      ],
    },
  },
  {
    key: 'first-time-giver',
    name: 'Thank a first-time giver',
    description: 'A thank-you the day of a first gift, and a note to the pastor.',
    fields: {
      name: 'Thank a first-time giver',
      trigger: { kind: 'donation_succeeded', firstGiftOnly: true },
      entryRule: { kind: 'once' },
      steps: [
        {
          id: 'thanks',
          kind: 'email',
          name: 'Thank you',
          subject: 'Thank you for your gift',
          content:
            '<p>Dear {{firstName}},</p><p>Thank you for your first gift to {{churchName}}. Your generosity makes our ministry possible.</p>',
          next: 'tell-pastor',
        },
        {
          id: 'tell-pastor',
          kind: 'notify',
          subject: 'A first-time giver',
          message: '{{firstName}} {{lastName}} gave for the first time.',
          next: null,
        },
      ],
    },
  },
  {
    key: 'first-time-family',
    name: 'Welcome a first-time family',
    description:
      'After a family checks children in for the first time: a thank-you text and email that afternoon, and a call.',
    fields: {
      name: 'Welcome a first-time family',
      trigger: { kind: 'checked_in', firstTimeOnly: true, weeksInARow: null },
      entryRule: { kind: 'once' },
      steps: [
        { id: 'wait-4h', kind: 'wait', wait: { mode: 'duration', amount: 4, unit: 'hours' }, next: 'thanks-text' },
        {
          id: 'thanks-text',
          kind: 'sms',
          name: 'Thank you for coming',
          body: 'Hi {{firstName}}, thank you for bringing your children to {{churchName}} today. We loved having them! Any questions, just reply.',
          operational: true,
          next: 'welcome',
        },
        {
          id: 'welcome',
          kind: 'email',
          name: 'Welcome',
          subject: 'Thank you for visiting {{churchName}}',
          content:
            '<p>Hello {{firstName}},</p><p>Thank you for bringing your children to {{churchName}} today. Our children’s team loved meeting them, and we would love to see your family again.</p>',
          operational: true,
          next: 'call',
        },
        {
          id: 'call',
          kind: 'task',
          title: 'Call {{firstName}} {{lastName}}',
          notes: 'A family checked children in for the first time: say hello and ask how their children found it.',
          dueInDays: 3,
          next: null,
        },
      ],
    },
  },
  {
    key: 'event-reminders',
    name: 'Event reminders',
    description: 'For each registration: an email a day before the event and a text an hour before.',
    fields: {
      name: 'Event reminders',
      trigger: { kind: 'event_registered', eventId: null },
      entryRule: { kind: 'every_time' },
      steps: [
        { id: 'day-before', kind: 'wait', wait: { mode: 'before_event', amount: 1, unit: 'days' }, next: 'reminder' },
        {
          id: 'reminder',
          kind: 'email',
          name: 'See you tomorrow',
          subject: 'See you tomorrow',
          content:
            '<p>Hello {{firstName}},</p><p>A reminder that the event you registered for at {{churchName}} is tomorrow. Your tickets are in your confirmation email: show their QR codes at the door.</p>',
          next: 'hour-before',
        },
        {
          id: 'hour-before',
          kind: 'wait',
          wait: { mode: 'before_event', amount: 1, unit: 'hours' },
          next: 'text',
        },
        {
          id: 'text',
          kind: 'sms',
          name: 'Starting soon',
          body: 'Hi {{firstName}}, the event you registered for at {{churchName}} starts in an hour. See you soon!',
          next: null,
        },
      ],
    },
  },
  {
    key: 'missed-event',
    name: 'We missed you',
    description:
      'When someone registered does not come (no check-in by the end of the event): a kind note the next day.',
    fields: {
      name: 'We missed you',
      trigger: { kind: 'event_missed', eventId: null },
      entryRule: { kind: 'every_time' },
      steps: [
        { id: 'next-day', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 'note' },
        {
          id: 'note',
          kind: 'email',
          name: 'We missed you',
          subject: 'We missed you',
          content:
            '<p>Hello {{firstName}},</p><p>We missed you at {{churchName}} yesterday and hope all is well. We would love to see you next time.</p>',
          next: null,
        },
      ],
    },
  },
  {
    key: 'birthday',
    name: 'Birthday greeting',
    description: 'A greeting by email at 9:00 on each birthday.',
    fields: {
      name: 'Birthday greeting',
      trigger: { kind: 'date', field: 'birthday' },
      entryRule: { kind: 'every_time' },
      steps: [
        {
          id: 'greeting',
          kind: 'email',
          name: 'Happy birthday',
          subject: 'Happy birthday, {{firstName}}!',
          content:
            '<p>Happy birthday, {{firstName}}!</p><p>Everyone at {{churchName}} wishes you a wonderful year.</p>',
          next: null,
        },
      ],
    },
  },
  {
    key: 'new-volunteer',
    name: 'Welcome a new volunteer',
    description: 'A welcome when someone joins a serving list, and a check-in two weeks later.',
    fields: {
      name: 'Welcome a new volunteer',
      trigger: { kind: 'list_added', listId: null },
      entryRule: { kind: 'once' },
      steps: [
        {
          id: 'welcome',
          kind: 'email',
          name: 'Welcome to the team',
          subject: 'Welcome to the team',
          content:
            '<p>Hello {{firstName}},</p><p>Thank you for serving at {{churchName}}! We will be in touch with your first dates soon.</p>',
          next: 'wait-2w',
        },
        { id: 'wait-2w', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'weeks' }, next: 'check-in' },
        {
          id: 'check-in',
          kind: 'task',
          title: 'Check in with {{firstName}} {{lastName}}',
          notes: 'Two weeks of serving: how is it going?',
          dueInDays: 3,
          next: null,
        },
      ],
    },
  },
  {
    key: 'missed-group',
    name: 'Missed three weeks of their group',
    description:
      'When a member misses three meetings of their group in a row, a task for the group’s leader to call them.',
    fields: {
      name: 'Missed three weeks of their group',
      trigger: { kind: 'group_missed', groupId: null, count: 3 },
      // The trigger fires once per run of missed meetings (not again at the fourth).
      entryRule: { kind: 'every_time' },
      steps: [
        {
          id: 'call',
          kind: 'task',
          title: 'Call {{firstName}} {{lastName}}',
          notes: 'They have missed the last three meetings of your group. Give them a call: how are they doing?',
          dueInDays: 2,
          toGroupLeader: true,
          next: null,
        },
      ],
    },
  },
  {
    key: 'recurring-givers',
    name: 'Bring recurring givers back',
    description:
      'After a move: each recurring giver gets their personal link by email, then a text, then a reminder; it stops when they set their gift up again.',
    fields: {
      name: 'Bring recurring givers back',
      // The recurring-gift import enrols the givers it finds (and staff may enrol more).
      trigger: { kind: 'manual' },
      entryRule: { kind: 'once' },
      goal: { kind: 'renewed_giving' },
      steps: [
        {
          id: 'link',
          kind: 'email',
          name: 'Your personal link',
          subject: 'Please set up your recurring gift to {{churchName}} again',
          content:
            '<p>Dear {{firstName}},</p><p>{{churchName}} has moved to a new giving system. Card details cannot move with us, so your recurring gift needs you once more: your personal link has your funds, amounts and frequency filled in, starting after your last gift in the old system.</p><p><a href="{{giveLink}}">Set up my gift again</a></p><p>Thank you for your faithful giving.</p>',
          next: 'wait-3d',
        },
        { id: 'wait-3d', kind: 'wait', wait: { mode: 'duration', amount: 3, unit: 'days' }, next: 'text' },
        {
          id: 'text',
          kind: 'sms',
          name: 'A text with the link',
          body: 'Hi {{firstName}}, {{churchName}} has a new giving system. Your recurring gift is ready to set up again here: {{giveLink}}',
          next: 'wait-7d',
        },
        { id: 'wait-7d', kind: 'wait', wait: { mode: 'duration', amount: 7, unit: 'days' }, next: 'reminder' },
        {
          id: 'reminder',
          kind: 'email',
          name: 'Reminder',
          subject: 'A reminder: your recurring gift to {{churchName}}',
          content:
            '<p>Dear {{firstName}},</p><p>Your recurring gift to {{churchName}} is not set up in our new system yet. It takes a minute: your funds and amounts are already filled in.</p><p><a href="{{giveLink}}">Set up my gift again</a></p>',
          next: null,
        },
      ],
    },
  },
];
