import type { Guide } from './guide';

/** Guides to the Outreach group: campaigns, pages, codes, posts and journeys. */
export const outreachGuides: Guide[] = [
  {
    paths: ['/email-campaigns'],
    title: 'Email Campaigns',
    about: [
      'An email campaign is one email sent to one or more of your contact lists: a weekly newsletter, an event invitation, a thank-you after Easter.',
      'Each campaign goes through four steps: the basics (name, subject and lists), the design, when to send it, and a preview. Nothing is sent until you confirm, and Lampstand tells you how many people it will reach first.',
    ],
    tasks: [
      {
        title: 'Send a newsletter',
        how: 'Choose New Campaign, give it a name and a subject line, pick the lists it goes to, write or paste the email, then choose Send now on the schedule step and confirm.',
      },
      {
        title: 'Schedule an email for later',
        how: 'On the schedule step choose Schedule for later and pick the day and time (in your church’s time zone). You can edit or cancel it until it goes out.',
      },
      {
        title: 'See who opened it',
        how: 'Open a sent campaign from the list to see how many emails were delivered, opened and clicked, and who unsubscribed.',
      },
    ],
  },
  {
    paths: ['/sms-campaigns'],
    title: 'SMS Campaigns',
    about: [
      'Text messages to your contact lists: reminders, last-minute changes, a short welcome. People who replied STOP are never texted.',
      'A long message counts as more than one text per person; the form tells you how many before you send.',
    ],
    tasks: [
      {
        title: 'Text a list',
        how: 'Choose New Campaign, name it, write the message (add the person’s first name with {{firstName}}), pick the lists, and send it or save it as ready to send.',
      },
      {
        title: 'Change a campaign before it goes',
        how: 'Use the pencil beside a draft, ready or scheduled campaign. Sent campaigns show how many texts were sent and delivered.',
      },
    ],
  },
  {
    paths: ['/landing-pages'],
    title: 'Landing Pages',
    about: [
      'Simple web pages for an event or a ministry, at your church’s own address, with a sign-up form that adds people to your contacts and lists.',
      'Build a page from blocks (a heading, text, a picture, an event, a sign-up form). It is only visible once you publish it.',
    ],
    tasks: [
      {
        title: 'Make a page for an event',
        how: 'Choose Create Landing Page, start blank or from a template, add the blocks you need with Add block, then publish it and share its address.',
      },
      {
        title: 'Collect sign-ups',
        how: 'Add a sign-up form block and choose the list people join. New sign-ups confirm their email before they are added.',
      },
      {
        title: 'See visits and sign-ups',
        how: 'Open a page’s statistics from its menu in the list to see visits and who signed up.',
      },
    ],
  },
  {
    paths: ['/qr-codes'],
    title: 'QR Codes',
    about: [
      'QR codes and short links for your bulletin, posters and screens. A code can point to any web address, and you can change where it goes after printing it.',
    ],
    tasks: [
      {
        title: 'Make a code for the bulletin',
        how: 'Choose Create QR Code, enter the address it opens, choose colours and a logo if you like, and download it as a picture.',
      },
      {
        title: 'Change where a printed code goes',
        how: 'Edit the code and change its address: the printed code keeps working and opens the new page.',
      },
    ],
  },
  {
    paths: ['/news-builder'],
    title: 'News Builder',
    about: ['News Builder is coming soon: it will help you put together newsletters and announcements.'],
    tasks: [{ title: 'Until then', how: 'Send news as an email campaign, or post it with Social Blast.' }],
  },
  {
    paths: ['/scheduling'],
    title: 'Scheduling',
    about: ['Scheduling is coming soon: one calendar of everything you plan to send.'],
    tasks: [
      {
        title: 'Until then',
        how: 'Schedule each email campaign on its schedule step, and each social post on the Social Blast calendar.',
      },
    ],
  },
  {
    paths: ['/templates'],
    title: 'Templates',
    about: [
      'Ready-made campaigns, pages and print designs that your administrator has shared with your church. Using one makes your own copy to change; the template stays as it was.',
    ],
    tasks: [
      {
        title: 'Start a campaign from a template',
        how: 'Find the template and choose Use: a draft campaign or page opens with its words and design, ready for your changes.',
      },
      { title: 'Print a flyer', how: 'Open a print template and use Print to get a page ready for your printer.' },
    ],
  },
  {
    paths: ['/show-up'],
    title: 'Show Up',
    about: [
      'Show Up lists projects that need support, from your church and others: a food bank freezer, a youth camp. People can give to a project online and follow its updates.',
    ],
    tasks: [
      {
        title: 'List a project',
        how: 'Choose List a Project, describe what you are raising money for, set a target and dates, add a picture, and create it.',
      },
      {
        title: 'Tell givers how it is going',
        how: 'Open your project and choose Post an Update: everyone following it can read it.',
      },
    ],
  },
  {
    paths: ['/social-blast'],
    title: 'Social Blast',
    about: [
      'Plan your social media posts on a calendar, weeks ahead if you like. Each post is published at its time, so Sunday’s reminder goes out even when the office is closed.',
    ],
    tasks: [
      {
        title: 'Plan a post',
        how: 'Choose Create New Post, write it, add a picture if you like, and pick the day and time it goes out.',
      },
      { title: 'Move a post', how: 'Open it on the calendar and change its time, or delete it before it goes out.' },
    ],
  },
  {
    paths: ['/journeys'],
    title: 'Journeys',
    about: [
      'A journey follows a person over days or weeks: a newcomer gets a welcome email, a text a few days later, and a staff member a task to call them. It starts by itself when something happens, such as a new sign-up or a first gift.',
      'Texts wait for the end of quiet hours, and a person who unsubscribed is not written to.',
    ],
    tasks: [
      {
        title: 'Welcome newcomers',
        how: 'Choose New journey, pick what starts it (for example a sign-up on your welcome page), then add its steps: emails, texts, waits and tasks. Turn it on when it is ready.',
      },
      {
        title: 'Try it first',
        how: 'Use test mode to send a journey to yourself without waiting the days between steps.',
      },
      { title: 'See who is where', how: 'Open a journey to see each person in it and the step they are at.' },
    ],
  },
  {
    paths: ['/events'],
    title: 'Events',
    about: [
      'Events people register for: a Christmas service, a breakfast, a camp, a course. Each has its times (one or a series, each with its own number of seats), free or paid tickets, questions to ask, and a public page once you publish it.',
      'Seats are never oversold: when a time is full people join the waitlist and get a link to claim a seat that comes free. Paid registrations are in your giving ledger as event registrations, not gifts.',
    ],
    tasks: [
      {
        title: 'Set up an event',
        how: 'Choose New event, fill in the title, the times and seats, the tickets and any questions, then Save. It stays a draft until you choose Publish on its page.',
      },
      {
        title: 'See who registered',
        how: 'Open the event: its registrant list shows each person, their tickets and answers. Search, filter by ticket, answer or check-in, export a CSV, or cancel a registration with a full or partial refund.',
      },
      {
        title: 'Tell registrants about a change',
        how: 'On the event’s page choose Message registrants, write the news (a new room, what to bring) and choose email, text or both. It reaches the people registered, even those who unsubscribed from newsletters.',
      },
      {
        title: 'Check people in at the door',
        how: 'On a phone open the event and choose Door view. Scan each ticket’s QR code with the camera, or search a name and tap Check in; add walk-ins on the spot.',
      },
    ],
  },
];
