import type { Guide } from './guide';

/** Guides to the People group: contacts, profile updates, conversations and tasks. */
export const peopleGuides: Guide[] = [
  {
    paths: ['/contacts'],
    title: 'Contacts',
    about: [
      'Everyone your church knows: members, visitors, staff and volunteers, with their families and children. Lists group them for campaigns (for example Youth Parents or the Prayer Team).',
      'Search finds people by first or last name, email or phone.',
    ],
    tasks: [
      {
        title: 'Add a person',
        how: 'Choose Add Contact and fill in their details. Save them first, then open them again to link family members and children.',
      },
      {
        title: 'Bring in a spreadsheet',
        how: 'Choose Import CSV, pick the file, and match its columns to Lampstand’s fields. People already in your contacts are matched by email, not added twice.',
      },
      {
        title: 'Make a list',
        how: 'On the Contact Lists tab choose Create List, then Add Contacts to it. A list’s SMS and Email buttons start a campaign to it.',
      },
    ],
  },
  {
    paths: ['/profile-updates'],
    title: 'Profile updates',
    about: [
      'When members change their own details on your members’ page (a new phone number, a new address), the change waits here. Nothing changes in your contacts until you approve it.',
      'The sidebar shows how many are waiting.',
    ],
    tasks: [
      {
        title: 'Approve a change',
        how: 'Check the old and new values and choose Approve. Choose Reject if it does not look right.',
      },
      {
        title: 'Approve several at once',
        how: 'Tick the ones you have checked (or Select all) and approve them together.',
      },
    ],
  },
  {
    paths: ['/conversations'],
    title: 'Conversations',
    about: [
      'Texts people send to your church’s number, and your replies, one conversation per person. Unread conversations are in bold and counted in the sidebar.',
      'Replies to your text campaigns land here too, so nobody’s answer is missed.',
    ],
    tasks: [
      {
        title: 'Answer a text',
        how: 'Open the conversation, type your reply and choose Send reply. Quick replies hold answers you send often.',
      },
      {
        title: 'Keep track',
        how: 'Close a conversation when it is done, or mark it unread to come back to it. Link an unknown number to a contact so you see their name.',
      },
      {
        title: 'Set up keywords',
        how: 'Under Keywords, a text starting with a word (for example JOIN) can get an automatic reply, join a list, start a journey or make a task.',
      },
    ],
  },
  {
    paths: ['/groups'],
    title: 'Groups',
    about: [
      'Small groups, classes and teams: who is in them, when they meet and who came. Newcomers find them on your group finder and ask to join.',
      "Leaders see their roster, answer requests and take attendance on their phone in the members' portal, even on a poor connection.",
    ],
    tasks: [
      {
        title: 'Start a group',
        how: 'Choose New group, set when and where it meets, its leaders and how people join.',
      },
      {
        title: 'Answer a request to join',
        how: 'Open the group: requests wait at the top with Approve and Decline. Its leaders can answer them in the portal too.',
      },
      {
        title: 'Follow up who drifted',
        how: 'A group’s page lists members who missed the last three meetings: a call from the leader helps.',
      },
      { title: 'Move people', how: 'Tick members on the group’s page and choose Move or copy, then the other group.' },
    ],
  },
  {
    paths: ['/tasks'],
    title: 'Tasks',
    about: [
      'Follow-ups for your staff: a call, a visit, a note. Journeys make them (for example "Call a first-time visitor"), and each is about one person.',
      'The sidebar counts your tasks due today or earlier.',
    ],
    tasks: [
      { title: 'Finish a task', how: 'Do it, then mark it done. It leaves your open tasks.' },
      {
        title: 'Pass a task on',
        how: 'Choose Reassign and pick a staff member: it appears in their follow-ups.',
      },
    ],
  },
];
