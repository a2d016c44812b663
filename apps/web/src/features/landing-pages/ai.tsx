import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput, Tooltip } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconRefresh, IconSparkles } from '@tabler/icons-react';
import { createContext, useContext, useState } from 'react';
import {
  AI_AUDIENCES,
  AI_PURPOSES,
  aiGeneratorInputSchema,
  type AiGeneratorInput,
} from '@lampstand/api/schemas/landing-pages';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';

export const AI_DISABLED_TEXT = "AI writing isn't available yet — ask your administrator to turn it on.";

interface AiContextValue {
  enabled: boolean;
  churchName: string;
  /** The page's text so far, sent with a regeneration request. */
  pageContext: () => string;
}
export const AiContext = createContext<AiContextValue>({ enabled: false, churchName: '', pageContext: () => '' });

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A button beside a text field: asks the model for a new version of that one section. */
export function RegenerateButton({
  section,
  label,
  onText,
}: {
  section: string;
  label: string;
  onText: (text: string) => void;
}) {
  const ai = useContext(AiContext);
  const regenerate = useSave(trpc.aiGenerator.section, {
    errorTitle: 'Failed to regenerate content',
    onSuccess: (r) => onText(r.content),
  });
  return (
    <Tooltip label={ai.enabled ? `Regenerate ${label.toLowerCase()} with AI` : AI_DISABLED_TEXT} multiline w={260}>
      <ActionIcon
        variant="light"
        size="lg"
        aria-label={`Regenerate ${label.toLowerCase()}`}
        disabled={!ai.enabled}
        loading={regenerate.isPending}
        onClick={() =>
          regenerate.mutate({
            churchName: ai.churchName || 'Our church',
            section,
            context: ai.pageContext().slice(0, 3900),
          })
        }
      >
        <IconRefresh size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

type Generated = RouterOutputs['aiGenerator']['landingPage'];
type GeneratorValues = Required<AiGeneratorInput>;

/** The generator form (the spec's fields, purposes and audiences); the answer fills the page. */
export function AiGeneratorButton({ onGenerated }: { onGenerated: (c: Generated) => void }) {
  const ai = useContext(AiContext);
  const [open, setOpen] = useState(false);
  const form = useForm<GeneratorValues>({
    mode: 'controlled',
    initialValues: { churchName: ai.churchName, purpose: '', topic: '', targetAudience: '', additionalInfo: '' },
    validate: schemaResolver(aiGeneratorInputSchema, { sync: true }),
  });
  const generate = useSave(trpc.aiGenerator.landingPage, {
    success: ['Content generated', 'The page has new copy. Review it, then save.'],
    errorTitle: 'Failed to generate content',
    onSuccess: (c) => {
      onGenerated(c);
      setOpen(false);
    },
  });
  return (
    <>
      <Tooltip label={AI_DISABLED_TEXT} multiline w={280} disabled={ai.enabled}>
        <span>
          <Button
            variant="light"
            leftSection={<IconSparkles size={18} />}
            disabled={!ai.enabled}
            onClick={() => setOpen(true)}
          >
            Generate with AI
          </Button>
        </span>
      </Tooltip>
      <Modal opened={open} onClose={() => setOpen(false)} title="Generate page content" size={600}>
        <form
          noValidate
          onSubmit={form.onSubmit((v) => generate.mutate({ ...v, additionalInfo: v.additionalInfo || undefined }))}
        >
          <Stack>
            <TextInput label="Church name" withAsterisk {...form.getInputProps('churchName')} />
            <Select
              label="Purpose"
              withAsterisk
              data={AI_PURPOSES.map((p) => ({ value: p, label: cap(p) }))}
              {...form.getInputProps('purpose')}
            />
            <TextInput
              label="Topic"
              withAsterisk
              description="e.g. Easter Sunday service"
              {...form.getInputProps('topic')}
            />
            <Select
              label="Target audience"
              withAsterisk
              data={AI_AUDIENCES.map((a) => ({ value: a, label: cap(a) }))}
              {...form.getInputProps('targetAudience')}
            />
            <Textarea
              label="Additional information"
              description="Dates, places and details the copy should mention (optional)"
              autosize
              minRows={3}
              {...form.getInputProps('additionalInfo')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={generate.isPending} leftSection={<IconSparkles size={18} />}>
                Generate
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

export function AiDisabledNote() {
  const ai = useContext(AiContext);
  if (ai.enabled) return null;
  return (
    <Alert color="gray" variant="light" icon={<IconSparkles size={18} />}>
      {AI_DISABLED_TEXT}
    </Alert>
  );
}
