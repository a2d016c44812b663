import { ActionIcon, Badge, Button, Card, Group, Image, Menu, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { IconDots, IconPencil, IconPlus, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import type { TemplateTypeValue } from '@lampstand/api/schemas/templates';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { AssignToChurchesDialog } from './assign-dialog';
import { PackageDialog, type Package } from './package-form';
import { TemplateDialog, type Template } from './template-form';
import { TemplatesByType } from './templates-by-type';

const EMPTY: Record<TemplateTypeValue, string> = {
  email: 'No email templates found.',
  sms: 'No SMS templates found.',
  print: 'No print templates found.',
  'landing-page': 'No landing page templates found.',
};

function ItemCard(props: {
  name: string;
  category: string;
  description: string | null;
  createdAt: string;
  isActive: boolean;
  thumbnail: string | null;
  extra?: React.ReactNode;
  onEdit: () => void;
  onDelete: () => void;
  onAssign: () => void;
}) {
  return (
    <Card withBorder padding="md">
      {props.thumbnail ? (
        <Card.Section mb="sm">
          <Image src={props.thumbnail} h={120} alt="" fit="cover" />
        </Card.Section>
      ) : null}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text fw={600}>{props.name}</Text>
          <Text size="sm" c="dimmed" tt="capitalize">
            {props.category}
          </Text>
        </Stack>
        <Menu position="bottom-end">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${props.name}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={props.onEdit}>
              Edit
            </Menu.Item>
            <Menu.Item leftSection={<IconUsersGroup size={16} />} onClick={props.onAssign}>
              Assign to churches
            </Menu.Item>
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={props.onDelete}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Text size="sm" mt="xs" lineClamp={2}>
        {props.description || 'No description provided'}
      </Text>
      {props.extra}
      <Group justify="space-between" mt="md">
        <Text size="xs" c="dimmed">
          Created {formatDate(props.createdAt)}
        </Text>
        <Badge color={props.isActive ? 'green' : 'gray'} variant="light">
          {props.isActive ? 'Active' : 'Inactive'}
        </Badge>
      </Group>
    </Card>
  );
}

export function AdminTemplatesPage() {
  const templates = trpc.adminTemplates.templates.useQuery();
  const packages = trpc.adminTemplates.packages.useQuery();
  const [tab, setTab] = useState<string>('templates');
  const [editingTemplate, setEditingTemplate] = useState<Template | 'new' | null>(null);
  const [editingPackage, setEditingPackage] = useState<Package | 'new' | null>(null);
  const [assigning, setAssigning] = useState<{ kind: 'template' | 'package'; id: number; name: string } | null>(null);
  const delTemplate = useSave(trpc.adminTemplates.deleteTemplate, {
    success: ['Success', 'Template deleted successfully.'],
    errorTitle: 'Error',
    errorPrefix: 'Failed to delete template',
    invalidate: (utils) => [utils.adminTemplates.templates.invalidate(), utils.adminTemplates.packages.invalidate()],
  });
  const delPackage = useSave(trpc.adminTemplates.deletePackage, {
    success: ['Success', 'Package deleted successfully.'],
    errorTitle: 'Error',
    errorPrefix: 'Failed to delete package',
    invalidate: (utils) => utils.adminTemplates.packages.invalidate(),
  });
  const all = templates.data ?? [];
  const nameOf = (id: number | null) => all.find((t) => t.id === id)?.name;
  return (
    <>
      <PageHeader
        title="Marketing Templates & Packages"
        description="Templates and packages that administrators assign to churches."
      />
      <Tabs value={tab} onChange={(v) => setTab(v ?? 'templates')}>
        <Tabs.List mb="md">
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          <Tabs.Tab value="packages">Packages</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="templates">
          <Group justify="flex-end" mb="md">
            <Button leftSection={<IconPlus size={18} />} onClick={() => setEditingTemplate('new')}>
              New Template
            </Button>
          </Group>
          <TemplatesByType
            templates={all}
            empty={(type) => EMPTY[type.value]}
            card={(t) => (
              <ItemCard
                key={t.id}
                {...t}
                onEdit={() => setEditingTemplate(t)}
                onAssign={() => setAssigning({ kind: 'template', id: t.id, name: t.name })}
                onDelete={() => {
                  if (window.confirm('Are you sure you want to delete this template?'))
                    delTemplate.mutate({ id: t.id });
                }}
              />
            )}
          />
        </Tabs.Panel>
        <Tabs.Panel value="packages">
          <Group justify="flex-end" mb="md">
            <Button leftSection={<IconPlus size={18} />} onClick={() => setEditingPackage('new')}>
              New Package
            </Button>
          </Group>
          {(packages.data ?? []).length === 0 ? (
            <Text c="dimmed" size="sm">
              No marketing packages found.
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {packages.data!.map((p) => (
                <ItemCard
                  key={p.id}
                  {...p}
                  extra={
                    <Group gap={4} mt="xs">
                      {[
                        ['Email', p.emailTemplateId],
                        ['SMS', p.smsTemplateId],
                        ['Print', p.printTemplateId],
                        ['Landing Page', p.landingPageTemplateId],
                      ].map(([label, id]) => (
                        <Badge
                          key={String(label)}
                          variant={id ? 'light' : 'outline'}
                          color={id ? 'indigo' : 'gray'}
                          title={id ? nameOf(id as number) : 'None'}
                        >
                          {label}
                          {id ? ' ✓' : ''}
                        </Badge>
                      ))}
                    </Group>
                  }
                  onEdit={() => setEditingPackage(p)}
                  onAssign={() => setAssigning({ kind: 'package', id: p.id, name: p.name })}
                  onDelete={() => {
                    if (window.confirm('Are you sure you want to delete this package?'))
                      delPackage.mutate({ id: p.id });
                  }}
                />
              ))}
            </SimpleGrid>
          )}
        </Tabs.Panel>
      </Tabs>
      {editingTemplate ? (
        <TemplateDialog
          template={editingTemplate === 'new' ? undefined : editingTemplate}
          onClose={() => setEditingTemplate(null)}
        />
      ) : null}
      {editingPackage ? (
        <PackageDialog
          pkg={editingPackage === 'new' ? undefined : editingPackage}
          templates={all}
          onClose={() => setEditingPackage(null)}
        />
      ) : null}
      {assigning ? <AssignToChurchesDialog target={assigning} onClose={() => setAssigning(null)} /> : null}
    </>
  );
}
