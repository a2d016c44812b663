import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { showFailure } from '../../lib/use-save';

/**
 * One donor's giving statement for a year, from the contact's Giving tab: opened in a new tab to
 * read or print, or downloaded. The same statement (lines, total, wording) a statement run emails.
 */
export function DonorStatement({ contactId }: { contactId: number }) {
  const thisYear = new Date().getFullYear();
  const years = [thisYear, thisYear - 1, thisYear - 2].map(String);
  const [year, setYear] = useState(String(thisYear - (new Date().getMonth() < 2 ? 1 : 0)));
  const [opening, setOpening] = useState(false);
  const utils = trpc.useUtils();
  const range = { contactId, from: `${year}-01-01`, to: `${year}-12-31` };
  const href = `/api/giving/donors/${contactId}/statement?from=${range.from}&to=${range.to}`;
  const open = async () => {
    // The tab opens on the click (a browser allows it then), and shows the PDF once it is made.
    const tab = window.open('', '_blank');
    setOpening(true);
    try {
      const file = await utils.giving.donorStatement.fetch(range);
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (err) {
      tab?.close();
      showFailure({ errorTitle: 'Failed to open the statement' }, err);
    } finally {
      setOpening(false);
    }
  };
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">
        Giving statement
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Year"
          data={years}
          value={year}
          onChange={(v) => v && setYear(v)}
          allowDeselect={false}
          w={120}
        />
        <Button variant="light" leftSection={<IconFileText size={18} />} loading={opening} onClick={() => void open()}>
          Open statement
        </Button>
        <Button variant="default" component="a" href={href} download leftSection={<IconDownload size={18} />}>
          Download PDF
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Every gift received from January 1 to December 31, {year}, as the year-end statements show it. Nothing is sent.
      </Text>
    </Stack>
  );
}
