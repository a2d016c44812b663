import {
  ActionIcon,
  Badge,
  Card,
  Group,
  Menu,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type JourneyStep, type JourneyStepKind } from '@lampstand/api/schemas/journeys';
import { describeStep } from '@lampstand/api/shared/journeys';
import type { z } from 'zod';
import type { stepStatsSchema } from '@lampstand/api/schemas/journeys';
import { formatNumber } from '../../ui/format';
import { cutOffByExit, layout, unreachable, type Block, type Slot } from './flow-model';
import { Words, type JourneyRefs } from './journey-refs';
import { STEP_KINDS, stepKind } from './step-kinds';
import classes from './flow.module.css';

export type StepStats = z.infer<typeof stepStatsSchema>;

export interface FlowProps {
  steps: JourneyStep[];
  refs: JourneyRefs;
  stats: Map<string, StepStats>;
  /** Messages the server tied to a step, by its number. */
  errors: Map<number, string>;
  onEdit: (step: JourneyStep, number: number) => void;
  onAdd: (slot: Slot, kind: JourneyStepKind) => void;
  /** An archived journey: no '+' to add steps. */
  readOnly?: boolean;
}

/** The journey top to bottom: each step as a card, '+' between them, a branch's paths side by side. */
export function Flow(props: FlowProps) {
  const blocks = layout(props.steps);
  const stray = unreachable(props.steps);
  return (
    <div className={classes.flow}>
      <Stack gap={0} align="center">
        <Badge variant="light" size="lg" radius="sm">
          Start
        </Badge>
        <Blocks blocks={blocks} {...props} />
        {stray.length > 0 ? (
          <Stack gap="xs" mt="lg" w="100%" align="center">
            <Text size="sm" fw={500}>
              Not on any path (no one reaches these steps)
            </Text>
            {stray.map((s) => (
              <StepCard key={s.id} step={s} number={props.steps.indexOf(s) + 1} {...props} />
            ))}
          </Stack>
        ) : null}
      </Stack>
    </div>
  );
}

function Blocks({ blocks, ...props }: FlowProps & { blocks: Block[] }) {
  return (
    <div className={classes.path} style={{ width: '100%' }}>
      {blocks.map((b) =>
        b.kind === 'slot' ? (
          <SlotButton key={`slot-${b.slot.from}-${b.slot.port}`} block={b} {...props} />
        ) : b.kind === 'step' ? (
          <StepCard key={b.step.id} step={b.step} number={b.number} {...props} />
        ) : (
          <div key={b.step.id} className={classes.path} style={{ width: '100%' }}>
            <StepCard step={b.step} number={b.number} {...props} />
            <div className={classes.line} />
            <div className={classes.columns} role="group" aria-label={`The two paths of step ${b.number}`}>
              <Stack gap={0} align="stretch" className={classes.column}>
                <Badge color="green" variant="light" className={classes.columnLabel}>
                  Yes
                </Badge>
                <Blocks blocks={b.yes} {...props} />
              </Stack>
              <Stack gap={0} align="stretch" className={classes.column}>
                <Badge color="red" variant="light" className={classes.columnLabel}>
                  No
                </Badge>
                <Blocks blocks={b.no} {...props} />
              </Stack>
            </div>
            <div className={classes.line} />
          </div>
        ),
      )}
    </div>
  );
}

function slotName(slot: Slot, props: FlowProps) {
  if (slot.from === 'start') return 'Add a step at the start';
  const number = props.steps.findIndex((s) => s.id === slot.from) + 1;
  return slot.port === 'next'
    ? `Add a step after step ${number}`
    : `Add a step on the ${slot.port} path of step ${number}`;
}

function SlotButton({ block, ...props }: FlowProps & { block: Extract<Block, { kind: 'slot' }> }) {
  const cut = cutOffByExit(props.steps, block.slot);
  return (
    <div className={classes.slot}>
      <div className={classes.line} />
      {props.readOnly ? null : (
        <Menu position="bottom" withinPortal>
          <Menu.Target>
            <ActionIcon variant="default" radius="xl" size="md" aria-label={slotName(block.slot, props)}>
              <IconPlus size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Add a step</Menu.Label>
            {STEP_KINDS.map((k) => (
              <Menu.Item
                key={k.kind}
                leftSection={<k.icon size={16} />}
                disabled={k.kind === 'exit' && cut.length > 0}
                onClick={() => props.onAdd(block.slot, k.kind)}
              >
                {k.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}

      {block.end ? (
        <>
          <div className={classes.line} />
          <Text size="xs" c="dimmed">
            End
          </Text>
        </>
      ) : block.goesTo ? (
        <Text size="xs" c="dimmed">
          Then step {block.goesTo}
        </Text>
      ) : (
        <div className={classes.line} />
      )}
    </div>
  );
}

function StepCard({ step, number, ...props }: FlowProps & { step: JourneyStep; number: number }) {
  const kind = stepKind(step.kind);
  const s = props.stats.get(step.id);
  const error = props.errors.get(number);
  const words = describeStep(step, props.refs.names);
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  const body = (
    <Card withBorder padding="sm" className={error ? classes.stepError : undefined}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color={kind.color} radius="md">
          <kind.icon size={18} />
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            <VisuallyHidden>Edit</VisuallyHidden> Step {number} · {kind.label}
          </Text>
          <Words text={sentence} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} />
          {s ? <StepCounts kind={step.kind} stats={s} /> : null}
          {error ? (
            <Text size="xs" c="red.8" fw={500}>
              {error}
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Card>
  );
  return (
    <div className={classes.card}>
      <UnstyledButton className={classes.cardButton} onClick={() => props.onEdit(step, number)}>
        {body}
      </UnstyledButton>
    </div>
  );
}

function StepCounts({ kind, stats }: { kind: JourneyStepKind; stats: StepStats }) {
  const items: [string, number][] = [['waiting here', stats.waiting]];
  if (kind === 'email') items.push(['sent', stats.sent], ['opened', stats.opened], ['clicked', stats.clicked]);
  else if (kind === 'sms') items.push(['sent', stats.sent]);
  else items.push(['passed', stats.done]);
  return (
    <Group gap={6} mt={2}>
      {items.map(([label, n]) => (
        <Badge key={label} variant="default" size="sm" radius="sm" tt="none" fw={500}>
          {formatNumber(n)} {label}
        </Badge>
      ))}
    </Group>
  );
}
