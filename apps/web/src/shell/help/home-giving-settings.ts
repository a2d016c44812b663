import type { Guide } from './guide';

/** Guides to the dashboard, Giving, Settings, the account and the administrators' screens. */
export const homeGivingSettingsGuides: Guide[] = [
  {
    paths: ['/'],
    title: 'Dashboard',
    about: [
      'Your church at a glance: how many contacts you have, how your last emails and texts did, visits to your pages, and what is scheduled next.',
      'The quick actions start the things you do most.',
    ],
    tasks: [
      {
        title: 'Start something quickly',
        how: 'Use the quick actions: a new email or text campaign, a landing page, a QR code, or new contacts.',
      },
      { title: 'Follow up', how: 'My follow-ups lists your open tasks, soonest first.' },
    ],
  },
  {
    paths: ['/giving'],
    title: 'Giving',
    about: [
      'Gifts to your church: online, recurring and entered by hand, each to a fund (General, Building, Missions). Totals, statements and exports all read the same gifts.',
    ],
    tasks: [
      {
        title: 'Enter the Sunday offering',
        how: 'Under Batches choose New Batch, enter the total you counted, then each gift with its donor and fund. The batch shows when the lines add up to the total.',
      },
      {
        title: 'Send year-end statements',
        how: 'Under Statements choose the year and Make Statements; download one donor’s or all of them.',
      },
      {
        title: 'Add a fund',
        how: 'Under Funds choose Add Fund. Donors can choose it when they give online.',
      },
    ],
  },
  {
    paths: ['/settings'],
    title: 'Settings',
    about: [
      'Details about your church that Lampstand uses everywhere, one section each in the list on the side: your address and time zone, your public profile, how emails are sent from your own domain, your texting number, giving, social posts, and connections to other systems.',
    ],
    tasks: [
      {
        title: 'Set your time zone',
        how: 'Under Church details choose your church’s time zone: scheduled emails, quiet hours and due dates follow it.',
      },
      {
        title: 'Send email from your own domain',
        how: 'Under Email sending add your domain, then ask whoever looks after your website to add the records shown. Check status tells you when it is ready.',
      },
      {
        title: 'Connect another system',
        how: 'Under Integrations, add the address of your other system: it hears what happens in Lampstand (sign-ups, gifts, replies). The bell tells you when one could not be reached.',
      },
    ],
  },
  {
    paths: ['/account'],
    title: 'Account',
    about: ['Your church’s name, the email address Lampstand writes to, and your password.'],
    tasks: [
      {
        title: 'Change your password',
        how: 'Enter your current password and the new one twice, then Change password.',
      },
      {
        title: 'Change your email',
        how: 'Save the new address, then open the link we send to it to confirm it is yours.',
      },
    ],
  },
  {
    paths: ['/admin/users'],
    title: 'User Management',
    about: ['Every church account on the platform. Administrators can see Lampstand as a church does.'],
    tasks: [
      {
        title: 'Help a church',
        how: 'Choose Impersonate on its row. Everything you do then acts as that church; choose Stop Impersonating when done.',
      },
    ],
  },
  {
    paths: ['/admin/templates'],
    title: 'Marketing Templates & Packages',
    about: ['Templates and packages that administrators make and share with churches.'],
    tasks: [
      {
        title: 'Share a template',
        how: 'Create it under Templates, then group templates into a package and assign it to churches.',
      },
    ],
  },
];
