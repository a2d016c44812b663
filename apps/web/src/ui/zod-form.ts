import type { z } from 'zod';

/**
 * A @mantine/form `validate` function from a zod schema (the same one the server uses), giving
 * the first message per field, keyed by its dotted path.
 */
export function zodValidate<T>(schema: z.ZodType<unknown, T>) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.');
      errors[key] ??= issue.message;
    }
    return errors;
  };
}
