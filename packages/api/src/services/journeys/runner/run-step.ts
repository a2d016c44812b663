import type { Db } from '@lampstand/db';
import { describeCondition } from '../../../shared/journeys.js';
import { conditionHolds } from './conditions.js';
import type { StepContext, StepResult } from './step-context.js';
import { runListStep } from './steps/lists.js';
import { runEmailStep, runSmsStep } from './steps/message.js';
import { runNotifyStep, runTaskStep } from './steps/staff.js';
import { runTagStep } from './steps/tag.js';

/** One step of a visit, by its kind (each kind's work is in steps/); 'later' when it must wait (the daily limit). */
export async function runStep(trx: Db, x: StepContext): Promise<StepResult | 'later'> {
  const { step, person } = x;
  switch (step.kind) {
    case 'email':
      return runEmailStep(trx, x, step);
    case 'sms':
      return runSmsStep(trx, x, step);
    case 'add_to_list':
    case 'remove_from_list':
      return runListStep(trx, x, step);
    case 'add_tag':
      return runTagStep(x, step);
    case 'task':
      return runTaskStep(trx, x, step);
    case 'notify':
      return runNotifyStep(trx, x, step);
    case 'branch': {
      if (!step.condition) return { outcome: 'no', detail: 'No condition', next: step.no };
      const yes = await conditionHolds(trx, x.e, step.condition, person, x.now);
      const words = describeCondition(step.condition).replace(/\*/g, '');
      return yes
        ? { outcome: 'yes', detail: `Yes: ${words}`, next: step.yes }
        : { outcome: 'no', detail: `No: not ${words}`, next: step.no };
    }
    case 'exit':
      return {
        outcome: 'done',
        detail: 'Left the journey',
        next: null,
        end: { status: 'exited', reason: 'Reached an exit step' },
      };
    case 'wait':
      // Handled by the visit (it stops there); never run as a step.
      return { outcome: 'done', detail: '', next: step.next };
  }
}
