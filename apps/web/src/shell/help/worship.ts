import type { Guide } from './guide';

/** Guides to the Worship & Serving group: the service planner and its tabs. */
export const worshipGuides: Guide[] = [
  {
    paths: ['/service-planner', '/service-planner?tab=plans'],
    title: 'Service Plans',
    about: [
      'A service plan is the order of one service: songs, readings, the sermon, announcements, each with its length, and the people serving that day.',
      'Plans can start from a template, so a regular Sunday takes minutes.',
    ],
    tasks: [
      {
        title: 'Plan Sunday',
        how: 'Choose New Plan, give it a title and a date, then add items (songs from your library, readings, notes) and drag them into order.',
      },
      {
        title: 'Print the run sheet',
        how: 'Open the plan and choose Print: a run sheet with times for the team, or chord charts for the band.',
      },
      {
        title: 'Ask people to serve',
        how: 'In the plan’s team section, schedule members for each position and send requests. They accept or decline by email.',
      },
    ],
  },
  {
    paths: ['/service-planner/plans'],
    title: 'A service plan',
    about: ['One service from start to finish: its order of service, the people serving, and what you print for them.'],
    tasks: [
      {
        title: 'Change the order',
        how: 'Add items with Add Item and drag them into place; the times add up as you go.',
      },
      {
        title: 'Fill the team',
        how: 'Schedule a member for each position, then send requests. Declines show so you can ask someone else.',
      },
      { title: 'Print', how: 'Use Print for a run sheet or chord charts in any key.' },
    ],
  },
  {
    paths: ['/service-planner?tab=matrix'],
    title: 'Serving Matrix',
    about: [
      'Who serves where, week by week: each row a position, each column a service. Gaps stand out, so you can fill them before Sunday.',
    ],
    tasks: [
      {
        title: 'Fill the coming weeks',
        how: 'Use auto-scheduling to suggest people fairly (it respects blockout dates and how often each person serves), then check and send the requests.',
      },
      {
        title: 'Fix one gap',
        how: 'Choose an empty cell and schedule a member who is free that day.',
      },
    ],
  },
  {
    paths: ['/service-planner?tab=songs', '/service-planner/songs'],
    title: 'Song Library',
    about: [
      'Your church’s songs with their chords, keys and tags. Plans use them, and the library remembers when each was last sung.',
    ],
    tasks: [
      { title: 'Add a song', how: 'Choose Add Song, or Import ChordPro to bring in a chord chart file.' },
      {
        title: 'Print a chart in another key',
        how: 'Open the song’s chart from its menu and pick the key; the chords move with it.',
      },
      {
        title: 'See what you sing most',
        how: 'Song usage shows how often each song was used, for your reports to copyright licensing.',
      },
    ],
  },
  {
    paths: ['/service-planner?tab=team'],
    title: 'Team Members',
    about: [
      'The people who serve and the positions they fill (vocals, sound, welcome team), with their blockout dates: the days they cannot serve.',
    ],
    tasks: [
      {
        title: 'Add a volunteer',
        how: 'Choose Add Member, link them to their contact, and tick the positions they can fill.',
      },
      {
        title: 'Record time away',
        how: 'Open a member and choose Add Blockout with the dates they are away; they will not be scheduled then.',
      },
      { title: 'Add a position', how: 'Type its name and category and choose Add Position.' },
    ],
  },
];
