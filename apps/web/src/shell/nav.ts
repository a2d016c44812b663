import {
  IconBuildingChurch,
  IconCalendarEvent,
  IconCalendarTime,
  IconTicket,
  IconChecklist,
  IconCirclesRelation,
  IconCoin,
  IconHeartHandshake,
  IconLayoutDashboard,
  IconLayoutGrid,
  IconMail,
  IconMessage,
  IconMessages,
  IconMusic,
  IconNews,
  IconQrcode,
  IconRoute,
  IconSpeakerphone,
  IconTable,
  IconTemplate,
  IconUser,
  IconUserEdit,
  IconUsers,
  IconUsersGroup,
  IconUserShield,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import type { WaitingCounts } from '@lampstand/api/schemas/waiting';

/** Where the browser is: the path, and the query string (the planner's tabs are `?tab=`). */
export interface NavLocation {
  pathname: string;
  search: string;
}

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** When the link counts as the current page. */
  isActive: (at: NavLocation) => boolean;
  /** A count of what waits here, shown as a badge, and how it reads aloud ('3 unread'). */
  badge?: { count: keyof Omit<WaitingCounts, 'bellUnread'>; words: string };
}

/**
 * A group of the sidebar, by what a church does: a new area (events, groups, check-in) is one more
 * item in its group, or one more group in `churchNav`.
 */
export interface NavGroup {
  title: string;
  /** A group shown without its heading (the dashboard, on top). */
  untitled?: boolean;
  items: NavItem[];
}

const under =
  (base: string) =>
  ({ pathname }: NavLocation) =>
    pathname === base || pathname.startsWith(`${base}/`);

/** The planner's tab in the query string ('plans' when none). */
const plannerTab = (search: string) => new URLSearchParams(search).get('tab') ?? 'plans';
const plannerTabActive =
  (tab: string) =>
  ({ pathname, search }: NavLocation) =>
    pathname === '/service-planner' && plannerTab(search) === tab;

/**
 * The church's sidebar. The spec's items (Dashboard, Contacts, Email Campaigns, SMS Campaigns,
 * Landing Pages, QR Codes, News Builder, Scheduling, Templates, Show Up, Social Blast) keep their
 * labels and their order inside their group; the later areas follow them.
 */
export const churchNav: NavGroup[] = [
  {
    title: 'Home',
    untitled: true,
    items: [{ label: 'Dashboard', to: '/', icon: IconLayoutDashboard, isActive: ({ pathname }) => pathname === '/' }],
  },
  {
    title: 'Outreach',
    items: [
      { label: 'Email Campaigns', to: '/email-campaigns', icon: IconMail, isActive: under('/email-campaigns') },
      { label: 'SMS Campaigns', to: '/sms-campaigns', icon: IconMessage, isActive: under('/sms-campaigns') },
      { label: 'Landing Pages', to: '/landing-pages', icon: IconWorldWww, isActive: under('/landing-pages') },
      { label: 'QR Codes', to: '/qr-codes', icon: IconQrcode, isActive: under('/qr-codes') },
      { label: 'News Builder', to: '/news-builder', icon: IconNews, isActive: under('/news-builder') },
      { label: 'Scheduling', to: '/scheduling', icon: IconCalendarTime, isActive: under('/scheduling') },
      { label: 'Templates', to: '/templates', icon: IconTemplate, isActive: under('/templates') },
      // The spec lights Show Up on the dashboard too ('active for / and any path under /show-up/').
      {
        label: 'Show Up',
        to: '/show-up',
        icon: IconHeartHandshake,
        isActive: (at) => at.pathname === '/' || under('/show-up')(at),
      },
      { label: 'Social Blast', to: '/social-blast', icon: IconSpeakerphone, isActive: under('/social-blast') },
      { label: 'Journeys', to: '/journeys', icon: IconRoute, isActive: under('/journeys') },
      { label: 'Events', to: '/events', icon: IconTicket, isActive: under('/events') },
    ],
  },
  {
    title: 'People',
    items: [
      { label: 'Contacts', to: '/contacts', icon: IconUsers, isActive: under('/contacts') },
      { label: 'Groups', to: '/groups', icon: IconCirclesRelation, isActive: under('/groups') },
      {
        label: 'Profile updates',
        to: '/profile-updates',
        icon: IconUserEdit,
        isActive: under('/profile-updates'),
        badge: { count: 'profileUpdates', words: 'waiting' },
      },
      {
        label: 'Conversations',
        to: '/conversations',
        icon: IconMessages,
        isActive: under('/conversations'),
        badge: { count: 'conversations', words: 'unread' },
      },
      {
        label: 'Tasks',
        to: '/tasks',
        icon: IconChecklist,
        isActive: under('/tasks'),
        badge: { count: 'tasksDue', words: 'due' },
      },
    ],
  },
  {
    title: 'Worship & Serving',
    items: [
      {
        label: 'Service Plans',
        to: '/service-planner',
        icon: IconCalendarEvent,
        isActive: (at) => plannerTabActive('plans')(at) || under('/service-planner/plans')(at),
      },
      {
        label: 'Serving Matrix',
        to: '/service-planner?tab=matrix',
        icon: IconTable,
        isActive: plannerTabActive('matrix'),
      },
      {
        label: 'Song Library',
        to: '/service-planner?tab=songs',
        icon: IconMusic,
        isActive: (at) => plannerTabActive('songs')(at) || under('/service-planner/songs')(at),
      },
      {
        label: 'Team Members',
        to: '/service-planner?tab=team',
        icon: IconUsersGroup,
        isActive: plannerTabActive('team'),
      },
    ],
  },
  {
    title: 'Giving',
    items: [{ label: 'Giving', to: '/giving/overview', icon: IconCoin, isActive: under('/giving') }],
  },
  {
    title: 'Settings',
    items: [
      { label: 'Settings', to: '/settings', icon: IconBuildingChurch, isActive: under('/settings') },
      { label: 'Account', to: '/account', icon: IconUser, isActive: under('/account') },
    ],
  },
];

export const adminNav: NavGroup = {
  title: 'Admin',
  items: [
    { label: 'User Management', to: '/admin/users', icon: IconUserShield, isActive: under('/admin/users') },
    { label: 'Templates', to: '/admin/templates', icon: IconLayoutGrid, isActive: under('/admin/templates') },
  ],
};

/** Every area a signed-in church reaches from the sidebar (and an administrator's too). */
export const everyNavItem = (admin: boolean): NavItem[] =>
  [...churchNav, ...(admin ? [adminNav] : [])].flatMap((g) => g.items);
