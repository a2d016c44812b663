import { bypassDb, createDb } from '@lampstand/db';
import { buildStatements } from '@lampstand/api/statements-build';

/**
 * The thread that builds a statement run (started by `statements-thread.ts`): its own small
 * connection pool, the build, the number of emails queued. It imports only the database and the
 * statement build, so the thread holds little besides the PDFs it is making.
 */
export async function runStatementBuild(o: {
  databaseUrl: string;
  runId: number;
  chunkSize?: number;
}): Promise<{ emails: number }> {
  const db = createDb(o.databaseUrl, { max: 2 });
  try {
    return await buildStatements(bypassDb(db), o.runId, { chunkSize: o.chunkSize });
  } finally {
    await db.destroy();
  }
}
