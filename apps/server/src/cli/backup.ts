import { spawn } from 'node:child_process';

/** pg_dump / pg_restore, from PG_DUMP / PG_RESTORE or the PATH. */
function run(bin: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (err) => reject(new Error(`${bin} could not start (${err.message}); set PG_DUMP / PG_RESTORE`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} exited with code ${code}`))));
  });
}

/** A pg_dump custom-format archive of the whole database (schema, data, pg-boss jobs). */
export async function backupDatabase(url: string, file: string, bin = process.env.PG_DUMP || 'pg_dump'): Promise<void> {
  await run(bin, ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`]);
}

/** Restore an archive over the database: its objects are dropped and recreated from the file. */
export async function restoreDatabase(
  url: string,
  file: string,
  bin = process.env.PG_RESTORE || 'pg_restore',
): Promise<void> {
  await run(bin, [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    `--dbname=${url}`,
    file,
  ]);
}
