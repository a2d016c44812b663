import { MultiSelect, NumberInput, Select, Textarea, TextInput } from '@mantine/core';
import type { EventDetail } from './event-words';

export type AnswerValue = string | number | boolean | string[];
type Question = EventDetail['questions'][number];

/** The input for one question's answer, by its kind. */
export function AnswerInput({
  question,
  label,
  value,
  onChange,
  error,
}: {
  question: Question;
  label: string;
  value: AnswerValue | undefined;
  onChange: (v: AnswerValue | undefined) => void;
  error?: React.ReactNode;
}) {
  const common = { label, required: question.required, error };
  switch (question.kind) {
    case 'long_text':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value || undefined)}
        />
      );
    case 'choice':
      return (
        <Select
          {...common}
          clearable
          data={question.choices}
          value={typeof value === 'string' ? value : null}
          onChange={(v) => onChange(v ?? undefined)}
        />
      );
    case 'multiple_choice':
      return (
        <MultiSelect
          {...common}
          data={question.choices}
          value={Array.isArray(value) ? value : []}
          onChange={(v) => onChange(v.length ? v : undefined)}
        />
      );
    case 'yes_no':
      return (
        <Select
          {...common}
          clearable
          data={[
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
          value={value === true ? 'yes' : value === false ? 'no' : null}
          onChange={(v) => onChange(v === null ? undefined : v === 'yes')}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(v) => onChange(v === '' ? undefined : Number(v))}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value || undefined)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value || undefined)}
        />
      );
  }
}
