import { Box, Group, NavLink, Select, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';
import { SocialSettingsSection } from '../social-blast/social-settings';
import { GivingSettings } from '../show-up/giving-settings';
import { ApiKeysSection } from './api-keys-section';
import { PublicProfileSection } from './public-profile-section';
import { ChurchDetailsSection } from './settings-page';
import { IntegrationsSection } from './webhooks/integrations-section';
import { SuppressionsSection } from './suppressions-section';
import { SendingDomainSection } from './sending-domain-section';
import { TextingSection } from './texting-section';
import { MoveInSection } from './move-in-section';
import { RecurringGiversSection } from './move-in-recurring';
import { ExportSection } from './export-section';
import { CheckinSettingsSection } from '../checkin/checkin-settings';

interface Section {
  /** Its address: /settings/{path}. */
  path: string;
  label: string;
  /** The anchors of the one long page it had before each section had its own address. */
  anchors: string[];
  render: () => ReactNode;
}

/** Settings, one section at a time, each with its own address and its own Save; the first opens at /settings. */
export const SETTINGS_SECTIONS: Section[] = [
  { path: 'church', label: 'Church details', anchors: ['time-zone'], render: () => <ChurchDetailsSection /> },
  { path: 'profile', label: 'Public profile', anchors: ['profile'], render: () => <PublicProfileSection /> },
  {
    path: 'sending',
    label: 'Email sending',
    anchors: ['email', 'suppressions'],
    render: () => (
      <>
        <SendingDomainSection />
        <SuppressionsSection />
      </>
    ),
  },
  { path: 'texting', label: 'Texting', anchors: ['texting'], render: () => <TextingSection /> },
  { path: 'giving', label: 'Giving', anchors: ['giving'], render: () => <GivingSettings /> },
  { path: 'social', label: 'Social', anchors: ['social'], render: () => <SocialSettingsSection /> },
  {
    path: 'webhooks',
    label: 'Integrations',
    anchors: ['integrations', 'webhooks'],
    render: () => <IntegrationsSection />,
  },
  { path: 'check-in', label: 'Check-in', anchors: ['check-in'], render: () => <CheckinSettingsSection /> },
  { path: 'api', label: 'API keys', anchors: ['api-keys'], render: () => <ApiKeysSection /> },
  { path: 'move-in', label: 'Move in', anchors: ['move-in'], render: () => <MoveInSection /> },
  { path: 're-enrolment', label: 'Re-enrolment', anchors: ['re-enrolment'], render: () => <RecurringGiversSection /> },
  { path: 'export', label: 'Export everything', anchors: ['export'], render: () => <ExportSection /> },
];

/**
 * /settings and /settings/{section}: the sections in a side list (a Select on a phone) beside the
 * one shown. /settings opens the first; an address of the old long page (/settings#texting) opens
 * its section, keeping the anchor where the section itself uses it (#time-zone focuses the time zone).
 */
export function SettingsPage() {
  const { section: path } = useParams();
  const { hash, search } = useLocation();
  const navigate = useNavigate();
  const anchor = hash.slice(1);
  const section = SETTINGS_SECTIONS.find((s) => s.path === path);
  if (!section) {
    // Stripe's onboarding came back to /settings?giving=… before Giving had its own address.
    const named = new URLSearchParams(search).has('giving') ? 'giving' : anchor;
    const target = SETTINGS_SECTIONS.find((s) => s.anchors.includes(named)) ?? SETTINGS_SECTIONS[0]!;
    const keep = target.path === 'church' && anchor ? hash : '';
    return <Navigate to={`/settings/${target.path}${search}${keep}`} replace />;
  }
  return (
    <>
      <PageHeader title="Settings" description="Details about your church used across Lampstand." />
      <Select
        hiddenFrom="sm"
        label="Settings section"
        allowDeselect={false}
        data={SETTINGS_SECTIONS.map((s) => ({ value: s.path, label: s.label }))}
        value={section.path}
        onChange={(v) => {
          if (v) void navigate(`/settings/${v}`);
        }}
        mb="md"
        maw={720}
      />
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <Box component="nav" aria-label="Settings sections" visibleFrom="sm" w={200} style={{ flexShrink: 0 }} mt="lg">
          <Stack gap={2}>
            {SETTINGS_SECTIONS.map((s) => (
              <NavLink
                key={s.path}
                component={Link}
                to={`/settings/${s.path}`}
                label={s.label}
                active={s.path === section.path}
                aria-current={s.path === section.path ? 'page' : undefined}
                variant="light"
              />
            ))}
          </Stack>
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>{section.render()}</Box>
      </Group>
    </>
  );
}
