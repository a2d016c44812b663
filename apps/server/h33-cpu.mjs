// usage: node cpu.mjs db N role tenant "sql1" "sql2" ... : CPU ms per statement of the backend (utime+stime), interleaved rounds
import pg from 'pg';
import fs from 'node:fs';
const [db, n, role, tenant, ...qs] = process.argv.slice(2);
const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${db}` });
await c.connect();
if (role !== 'owner') await c.query(`set role ${role}`);
await c.query(`select set_config('app.tenant_id', $1, false)`, [tenant]);
await c.query('set max_parallel_workers_per_gather = 0'); if (process.env.PRE) await c.query(process.env.PRE);
const pid = (await c.query('select pg_backend_pid() as p')).rows[0].p;
const tick = () => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const res = qs.map(() => ({ cpu: 0, wall: 0 }));
for (let q of qs) await c.query(q);
const rounds = 5;
for (let r = 0; r < rounds; r++) for (let i = 0; i < qs.length; i++) {
  const t0 = tick(), w0 = performance.now();
  for (let k = 0; k < Number(n); k++) await c.query(qs[i]);
  res[i].cpu += tick() - t0; res[i].wall += performance.now() - w0;
}
const total = Number(n) * rounds;
qs.forEach((q, i) => console.log(`${(res[i].cpu / total).toFixed(2)} ms CPU  ${(res[i].wall / total).toFixed(2)} ms wall  ${q.slice(0, 110).replace(/\s+/g, ' ')}`));
await c.end();
