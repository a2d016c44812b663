import { SECRET_COLUMNS_REASON, SKIPPED_TABLES, tableDescription } from './catalogue.js';
import type { NestedDocument } from './nested.js';
import { RESTORE_NOTES } from '../imports/church/rules.js';

/** What manifest.json says about the export: read back by `readExport`. */
export interface ExportManifest {
  format: 'lampstand-export';
  version: 1;
  church: { name: string };
  createdAt: string;
  tables: { name: string; file: string; rows: number; columns: { name: string; type: string }[]; leftOut: string[] }[];
  documents: { file: string; description: string }[];
  files: { file: string; bytes: number }[];
  skippedTables: { name: string; reason: string }[];
}

export const tableFile = (table: string) => `tables/${table}.csv`;

/** README.md: how the files are written, each file and its columns, and what was left out and why. */
export function exportReadme(manifest: ExportManifest, documents: readonly NestedDocument[]): string {
  const lines = [
    `# ${manifest.church.name}: everything, exported ${manifest.createdAt.slice(0, 10)}`,
    '',
    `This ZIP holds everything ${manifest.church.name} keeps in Lampstand: every table as a CSV file, ` +
      'the nested data (landing pages, journeys, service plans) as JSON, and the uploaded files.',
    '',
    '## How the files are written',
    '',
    '- `tables/<table>.csv`: one file per table. The first row names the columns (as listed below); UTF-8, commas, ' +
      'double quotes around text that needs them.',
    '- An empty field means no value; `""` is empty text. Dates and times are ISO 8601 in UTC. Yes/no columns say ' +
      '`yes` or `no`. JSON and list columns hold JSON text.',
    "- Text starting with `=`, `+`, `-`, `@`, a tab or a carriage return has an apostrophe (`'`) in front, so a " +
      'spreadsheet never runs it as a formula; an importer drops that apostrophe again.',
    '- `json/*.json`: nested data, one JSON array per file.',
    '- `files/…`: the uploaded files, under the storage key the `uploads` table names.',
    '- `manifest.json`: the same list as this README, for programs (each column with its database type).',
    '',
    '## Tables',
    '',
  ];
  for (const t of manifest.tables) {
    lines.push(`### ${t.file} (${t.rows} ${t.rows === 1 ? 'row' : 'rows'})`, '', tableDescription(t.name), '');
    lines.push(`Columns: ${t.columns.map((c) => `\`${c.name}\` (${c.type})`).join(', ')}.`, '');
    if (t.leftOut.length > 0) lines.push(`Left out (secrets): ${t.leftOut.map((c) => `\`${c}\``).join(', ')}.`, '');
  }
  lines.push('## Nested data', '');
  for (const d of documents) lines.push(`- \`${d.file}\`: ${d.description}`);
  lines.push('', '## Uploaded files', '');
  lines.push(
    manifest.files.length === 0
      ? 'No uploaded files.'
      : `${manifest.files.length} files in \`files/\` (each image as uploaded, large and thumbnail).`,
  );
  lines.push('', '## Left out', '', SECRET_COLUMNS_REASON, '');
  for (const [name, reason] of Object.entries(SKIPPED_TABLES)) lines.push(`- \`${name}\`: ${reason}`);
  lines.push(
    '- Passwords, sign-in sessions and the account itself are not tables of the church; sign up again where you move to.',
    '',
    '## Moving it into another Lampstand',
    '',
    'Settings → Move in on a new church takes this ZIP as it is. What it does:',
    '',
    ...RESTORE_NOTES.map((n) => `- ${n}`),
    '',
  );
  return lines.join('\n');
}

export const skippedTablesList = () => Object.entries(SKIPPED_TABLES).map(([name, reason]) => ({ name, reason }));
