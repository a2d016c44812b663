import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router-dom';

const TABS = [
  { value: '/giving/overview', label: 'Overview' },
  { value: '/giving/funds', label: 'Funds' },
  { value: '/giving/recurring', label: 'Recurring' },
  { value: '/giving/batches', label: 'Batches' },
  { value: '/giving/statements', label: 'Statements' },
];

/** Giving's screens, as tabs that are links (each its own address). */
export function GivingTabs() {
  const location = useLocation();
  const navigate = useNavigate();
  const current = TABS.find((t) => location.pathname.startsWith(t.value))?.value ?? TABS[0]!.value;
  return (
    <Tabs
      value={current}
      onChange={(v) => {
        if (v) void navigate(v);
      }}
      mb="md"
    >
      <Tabs.List>
        {TABS.map((t) => (
          <Tabs.Tab key={t.value} value={t.value}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
