import { spawn, type ChildProcess } from 'node:child_process';

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

/**
 * Restore an archive over the database, in one transaction: its objects are dropped and recreated
 * from the file. pg_restore writes the script and psql runs it, after first dropping pg-boss's
 * schema: pg_restore's own --clean cannot drop the job queue's partitioned tables ('cannot drop
 * inherited constraint'), so the archive would not restore over a database that has them — every
 * running Lampstand database has.
 */
export async function restoreDatabase(
  url: string,
  file: string,
  bin = process.env.PG_RESTORE || 'pg_restore',
  psqlBin = process.env.PSQL || 'psql',
): Promise<void> {
  const script = spawn(bin, ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--file=-', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const apply = spawn(
    psqlBin,
    [
      '--no-psqlrc',
      '--quiet',
      '--set=ON_ERROR_STOP=1',
      '--single-transaction',
      '--command=drop schema if exists pgboss cascade',
      '--file=-',
      `--dbname=${url}`,
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  script.stdout.pipe(apply.stdin);
  const exited = (child: ChildProcess, name: string) =>
    new Promise<void>((resolve, reject) => {
      child.on('error', (err) => reject(new Error(`${name} could not start (${err.message}); set PG_RESTORE / PSQL`)));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited with code ${code}`))));
    });
  await Promise.all([exited(script, bin), exited(apply, psqlBin)]);
}
