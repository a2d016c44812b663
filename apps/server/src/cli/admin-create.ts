import { parseArgs } from 'node:util';
import { connectDatabase } from '@lampstand/db';
import { registerUser } from '@lampstand/api/server';
import { registerSchema } from '@lampstand/api/schemas/auth';
import { loadConfig } from '../config.js';

const usage = `Create a platform administrator, or promote an existing account.

  pnpm admin:create --username NAME --password SECRET --email EMAIL [--church "Name"]
  pnpm admin:create --promote NAME

Uses DATABASE_URL, or the embedded database under DATA_DIR (stop the app first).`;

const { values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    email: { type: 'string' },
    church: { type: 'string' },
    promote: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || (!values.promote && !values.username)) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const config = loadConfig();
const database = await connectDatabase({
  databaseUrl: config.databaseUrl,
  databaseOwnerUrl: config.databaseOwnerUrl,
  dataDir: config.dataDir,
  embeddedPort: config.embeddedPgPort,
});
let code = 0;
try {
  if (values.promote) {
    const row = await database.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where((eb) => eb(eb.fn('lower', ['username']), '=', values.promote!.toLowerCase()))
      .returning(['id', 'username'])
      .executeTakeFirst();
    if (!row) {
      console.error(`No account named '${values.promote}'.`);
      code = 1;
    } else {
      console.log(`${row.username} (id ${row.id}) is now an administrator.`);
    }
  } else {
    const parsed = registerSchema.safeParse({
      username: values.username,
      password: values.password,
      email: values.email,
      churchName: values.church ?? 'Lampstand Platform',
    });
    if (!parsed.success) {
      console.error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
      code = 2;
    } else {
      const user = await registerUser(database.db, parsed.data, { role: 'admin' });
      console.log(`Created administrator ${user.username} (id ${user.id}).`);
    }
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
