import { describe, expect, it } from 'vitest';
import { startTestApp, registerChurch } from '../helpers/test-app.js';

describe('harness', async () => {
  const app = await startTestApp();
  it('registers and reads the user', async () => {
    const { client, user } = await registerChurch(app.url);
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });
});
