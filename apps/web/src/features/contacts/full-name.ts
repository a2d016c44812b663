/** A contact's name as shown everywhere ('Maria Lopez'). Its own module, free of the schemas (and so of
 * zod), for screens on the staff app's first load such as the dashboard's follow-ups. */
export function fullName(c: { firstName: string; lastName: string }): string {
  return `${c.firstName} ${c.lastName}`.trim();
}
