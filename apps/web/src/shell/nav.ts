import {
  IconCalendarTime,
  IconChecklist,
  IconCoin,
  IconHeartHandshake,
  IconLayoutDashboard,
  IconLayoutGrid,
  IconMail,
  IconMessage,
  IconMessages,
  IconNews,
  IconQrcode,
  IconRoute,
  IconSpeakerphone,
  IconTemplate,
  IconUsers,
  IconUserShield,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** When the link counts as the current page. */
  isActive: (path: string) => boolean;
}

const under = (base: string) => (path: string) => path === base || path.startsWith(`${base}/`);

export const marketingNav: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: IconLayoutDashboard, isActive: (p) => p === '/' },
  { label: 'Contacts', to: '/contacts', icon: IconUsers, isActive: under('/contacts') },
  { label: 'Email Campaigns', to: '/email-campaigns', icon: IconMail, isActive: under('/email-campaigns') },
  { label: 'SMS Campaigns', to: '/sms-campaigns', icon: IconMessage, isActive: under('/sms-campaigns') },
  { label: 'Landing Pages', to: '/landing-pages', icon: IconWorldWww, isActive: under('/landing-pages') },
  { label: 'QR Codes', to: '/qr-codes', icon: IconQrcode, isActive: under('/qr-codes') },
  { label: 'News Builder', to: '/news-builder', icon: IconNews, isActive: under('/news-builder') },
  { label: 'Scheduling', to: '/scheduling', icon: IconCalendarTime, isActive: under('/scheduling') },
  { label: 'Templates', to: '/templates', icon: IconTemplate, isActive: under('/templates') },
  // The spec lights Show Up on the dashboard too ('active for / and any path under /show-up/').
  { label: 'Show Up', to: '/show-up', icon: IconHeartHandshake, isActive: (p) => p === '/' || under('/show-up')(p) },
  { label: 'Social Blast', to: '/social-blast', icon: IconSpeakerphone, isActive: under('/social-blast') },
  { label: 'Journeys', to: '/journeys', icon: IconRoute, isActive: under('/journeys') },
  { label: 'Tasks', to: '/tasks', icon: IconChecklist, isActive: under('/tasks') },
  { label: 'Giving', to: '/giving/overview', icon: IconCoin, isActive: under('/giving') },
  { label: 'Conversations', to: '/conversations', icon: IconMessages, isActive: under('/conversations') },
];

export const adminNav: NavItem[] = [
  { label: 'User Management', to: '/admin/users', icon: IconUserShield, isActive: under('/admin/users') },
  { label: 'Templates', to: '/admin/templates', icon: IconLayoutGrid, isActive: under('/admin/templates') },
];
