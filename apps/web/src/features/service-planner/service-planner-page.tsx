import { Tabs } from '@mantine/core';
import { IconCalendarEvent, IconLayoutGrid, IconMusic, IconUsers } from '@tabler/icons-react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';
import { MatrixTab } from './matrix-tab';
import { PlansTab } from './plans-tab';
import { SongsTab } from './songs-tab';
import { TeamTab } from './team-tab';

const TABS = ['plans', 'matrix', 'songs', 'team'] as const;

export function ServicePlannerPage() {
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'plans';
  return (
    <>
      <PageHeader title="Service Planner" description="Service plans, songs and team members." />
      <Tabs
        value={tab}
        onChange={(v) => setParams(v && v !== 'plans' ? { tab: v } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="plans" leftSection={<IconCalendarEvent size={18} />}>
            Service Plans
          </Tabs.Tab>
          <Tabs.Tab value="matrix" leftSection={<IconLayoutGrid size={18} />}>
            Matrix
          </Tabs.Tab>
          <Tabs.Tab value="songs" leftSection={<IconMusic size={18} />}>
            Song Library
          </Tabs.Tab>
          <Tabs.Tab value="team" leftSection={<IconUsers size={18} />}>
            Team Members
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="plans">
          <PlansTab />
        </Tabs.Panel>
        <Tabs.Panel value="matrix">
          <MatrixTab />
        </Tabs.Panel>
        <Tabs.Panel value="songs">
          <SongsTab />
        </Tabs.Panel>
        <Tabs.Panel value="team">
          <TeamTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
