import { Alert, Badge, Button, Card, Group, Loader, Paper, Select, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { TEMPLATE_TYPES } from '@lampstand/api/schemas/templates';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { errorMessage } from '../../lib/errors';
import { PageHeader } from '../../ui/page-header';
import { CATEGORY_OPTIONS } from './template-form';
import { TemplatesByType } from './templates-by-type';

type ChurchTemplate = RouterOutputs['templates']['list'][number];

function UseButton({ template }: { template: ChurchTemplate }) {
  const navigate = useNavigate();
  const use = useSave(trpc.templates.use, { errorTitle: 'Error', onSuccess: (r) => navigate(r.path) });
  return (
    <Button
      size="xs"
      loading={use.isPending}
      onClick={() => use.mutate({ id: template.id })}
      aria-label={`Use ${template.name}`}
    >
      Use
    </Button>
  );
}

function TemplateCard({ t }: { t: ChurchTemplate }) {
  return (
    <Card withBorder>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text fw={600}>{t.name}</Text>
          <Text size="sm" c="dimmed" tt="capitalize">
            {t.category}
          </Text>
        </Stack>
        <Badge variant="light">{TEMPLATE_TYPES.find((x) => x.value === t.type)?.label}</Badge>
      </Group>
      <Text size="sm" mt="xs" lineClamp={2}>
        {t.description || 'No description provided'}
      </Text>
      <Group justify="flex-end" mt="md">
        <UseButton template={t} />
      </Group>
    </Card>
  );
}

export function ChurchTemplatesPage() {
  const templates = trpc.templates.list.useQuery();
  const packages = trpc.templates.packages.useQuery();
  const [category, setCategory] = useState<string | null>(null);
  const shown = (templates.data ?? []).filter((t) => !category || t.category === category);
  return (
    <>
      <PageHeader
        title="Templates"
        description="Ready-made campaigns your administrator has shared with your church."
      />
      <Select
        label="Category"
        placeholder="All categories"
        clearable
        data={CATEGORY_OPTIONS}
        value={category}
        onChange={setCategory}
        maw={260}
        mb="md"
      />
      <Tabs defaultValue="templates">
        <Tabs.List mb="md">
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          <Tabs.Tab value="packages">Packages</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="templates">
          {templates.isLoading ? (
            <Loader aria-label="Loading templates" />
          ) : templates.error ? (
            <Alert color="red">{errorMessage(templates.error)}</Alert>
          ) : (
            <TemplatesByType
              templates={shown}
              empty={(type) => `No ${type.label.toLowerCase()} templates yet.`}
              card={(t) => <TemplateCard key={t.id} t={t} />}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="packages">
          {(packages.data ?? []).filter((p) => !category || p.category === category).length === 0 ? (
            <Text c="dimmed" size="sm">
              No packages yet.
            </Text>
          ) : (
            <Stack>
              {packages
                .data!.filter((p) => !category || p.category === category)
                .map((p) => (
                  <Paper key={p.id} withBorder p="md">
                    <Text fw={600}>{p.name}</Text>
                    <Text size="sm" c="dimmed">
                      {p.description || 'No description provided'}
                    </Text>
                    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} mt="sm">
                      {p.templates.map((t) => (
                        <TemplateCard key={t.id} t={t} />
                      ))}
                    </SimpleGrid>
                  </Paper>
                ))}
            </Stack>
          )}
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/** A print template's printable page. */
export function PrintTemplatePage() {
  const { id } = useParams();
  const templates = trpc.templates.list.useQuery();
  const t = templates.data?.find((x) => x.id === Number(id) && x.type === 'print');
  if (templates.isLoading) return <Loader aria-label="Loading" />;
  if (!t) return <Alert color="red">Template not found</Alert>;
  return (
    <Stack>
      <Group className="no-print" justify="space-between">
        <Button component={Link} to="/templates" variant="default">
          Back to Templates
        </Button>
        <Button onClick={() => window.print()}>Print</Button>
      </Group>
      <Paper withBorder p="xl" maw={800}>
        <div dangerouslySetInnerHTML={{ __html: String((t.content as { html?: string }).html ?? '') }} />
      </Paper>
    </Stack>
  );
}
