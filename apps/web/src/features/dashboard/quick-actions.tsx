import type { StatusKind } from '../../ui/status-color';
import { IconCalendarPlus, IconMail, IconMessage, IconQrcode, IconUserPlus, IconWorldWww } from '@tabler/icons-react';

export const QUICK_ACTIONS = [
  { label: 'New Email Campaign', to: '/email-campaigns/new', icon: IconMail },
  { label: 'New SMS Campaign', to: '/sms-campaigns/new', icon: IconMessage },
  { label: 'Create Landing Page', to: '/landing-pages/new', icon: IconWorldWww },
  { label: 'Generate QR Code', to: '/qr-codes/new', icon: IconQrcode },
  { label: 'Add Contacts', to: '/contacts/new', icon: IconUserPlus },
  { label: 'Schedule Campaign', to: '/scheduling/new', icon: IconCalendarPlus },
];

/** Icon above the label, and the label wraps at any width instead of being cut ('New Email C'). */
export const QUICK_ACTION_STYLES = {
  inner: { flexDirection: 'column', gap: 6 },
  section: { margin: 0 },
  label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3, overflow: 'visible' },
} as const;

/** A campaign's status as the dashboard colours it: sent green, scheduled waiting, sending at work, failed red. */
export function campaignStatusKind(status: string): StatusKind {
  const s = status.toLowerCase();
  if (s === 'completed' || s === 'sent') return 'success';
  if (s === 'scheduled') return 'waiting';
  if (s === 'active' || s === 'sending') return 'working';
  if (s === 'failed') return 'failure';
  return 'neutral';
}
