import { Button, Group, Menu } from '@mantine/core';
import {
  IconChevronDown,
  IconCopy,
  IconDownload,
  IconPencil,
  IconPrinter,
  IconSpeakerphone,
  IconTemplate,
  IconTrash,
} from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { PlanDetail } from '@lampstand/api/schemas/service-planner';

/** The plan's header buttons: edit, print (run sheet or chords), announce, and More (duplicate, delete). */
export function PlanActions({
  plan: p,
  onEdit,
  onAnnounce,
  onDuplicate,
  onSaveTemplate,
  onDelete,
}: {
  plan: PlanDetail;
  onEdit: () => void;
  onAnnounce: () => void;
  onDuplicate: () => void;
  onSaveTemplate: () => void;
  onDelete: () => void;
}) {
  const hasSongs = p.items.some((i) => i.song);
  return (
    <Group gap="xs" wrap="wrap">
      <Button variant="default" leftSection={<IconPencil size={18} />} onClick={onEdit}>
        Edit Plan
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconPrinter size={18} />}
            rightSection={<IconChevronDown size={16} />}
          >
            Print
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to={`/service-planner/plans/${p.id}/print`}>
            Run sheet
          </Menu.Item>
          <Menu.Item component={Link} to={`/service-planner/plans/${p.id}/print?view=chords`}>
            Lyrics and chords
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Button leftSection={<IconSpeakerphone size={18} />} onClick={onAnnounce}>
        Announce
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={16} />}>
            More
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconCopy size={16} />} onClick={onDuplicate}>
            Duplicate
          </Menu.Item>
          <Menu.Item leftSection={<IconTemplate size={16} />} onClick={onSaveTemplate}>
            Save as template
          </Menu.Item>
          {hasSongs ? (
            <>
              <Menu.Item
                leftSection={<IconDownload size={16} />}
                component="a"
                href={`/api/service-planner/plans/${p.id}/chordpro`}
                download
              >
                Songs as ChordPro
              </Menu.Item>
              <Menu.Item
                leftSection={<IconDownload size={16} />}
                component="a"
                href={`/api/service-planner/plans/${p.id}/openlyrics`}
                download
              >
                Songs as OpenLyrics (zip)
              </Menu.Item>
            </>
          ) : null}
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
