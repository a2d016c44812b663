/** The first 140 characters of a text, on one line: a conversation's preview in the list. */
export function preview(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
