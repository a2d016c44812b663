import { Box, Group, Paper, SegmentedControl, Text } from '@mantine/core';
import { useState } from 'react';

/** The page as visitors will see it, at desktop or phone width, in a sandboxed frame. */
export function BuilderPreview({ html }: { html: string }) {
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  return (
    <Box pos="sticky" top={76}>
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Preview</Text>
        <SegmentedControl
          aria-label="Preview width"
          value={width}
          onChange={(v) => setWidth(v)}
          data={[
            { value: 'desktop', label: 'Desktop' },
            { value: 'phone', label: 'Phone' },
          ]}
        />
      </Group>
      <Paper withBorder radius="md" style={{ overflow: 'hidden', background: 'var(--mantine-color-gray-1)' }}>
        <iframe
          title="Page preview"
          srcDoc={html}
          sandbox=""
          style={{
            display: 'block',
            border: 0,
            width: width === 'phone' ? 390 : '100%',
            maxWidth: '100%',
            margin: '0 auto',
            height: '75vh',
            background: '#fff',
          }}
        />
      </Paper>
    </Box>
  );
}
