import { fieldIssues, type SaveError } from '../../lib/use-save';
import { stepNumberOf, stepNumberOfPath } from './flow-model';

/** What the server said: messages tied to a step (by its number) and the others ('Trigger: …'). */
export interface Problems {
  steps: Map<number, string>;
  other: string[];
}
export const noProblems: Problems = { steps: new Map(), other: [] };

export function problemsOf(messages: { path?: string; message: string }[]): Problems {
  const steps = new Map<number, string>();
  const other: string[] = [];
  for (const m of messages) {
    const n = stepNumberOf(m.message) ?? (m.path ? stepNumberOfPath(m.path) : null);
    if (n !== null) steps.set(n, steps.has(n) ? `${steps.get(n)} ${m.message}` : m.message);
    else if (!other.includes(m.message)) other.push(m.message);
  }
  return { steps, other };
}

/**
 * A refused save or activation as messages: the field issues, or the server's one message split
 * into its reasons ('This journey cannot start: Step 3: …; Trigger: …').
 */
export function messagesOfError(e: SaveError): { path?: string; message: string }[] {
  const issues = fieldIssues(e);
  if (issues.length) return issues;
  const text = e.message.replace(/^This journey cannot start:\s*/, '');
  return text.split(/;\s+(?=Step \d+:|Trigger:|Goal:)/).map((message) => ({ message }));
}

export const problemsOfError = (e: SaveError): Problems => problemsOf(messagesOfError(e));
