// The admissions a quota keeps (one row per admitted unit) do not pile up: once a window has passed,
// the rows no later admission can ask about are swept by a later batch (at most one sweep a second
// per worker: sweeping with every batch was a sixth of admitting in bench:publish).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { batchedAdmissions } from '../../src/publishing/admission.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('rows a window old are swept by a later admission, and a held destination keeps its reason', async () => {
  const org = await server.createOrg();
  const account = await server.addAccount(org, 'x');
  const target = async () => {
    const { rows: [post] } = await server.db.query<{ id: string }>('INSERT INTO posts (org_id) VALUES ($1) RETURNING id', [org.orgId]);
    const { rows: [row] } = await server.db.query<{ id: string }>('INSERT INTO targets (org_id, post_id, account_id) VALUES ($1, $2, $3) RETURNING id', [org.orgId, post!.id, account.rawId]);
    return Number(row!.id);
  };
  const admit = batchedAdmissions(server.db, createLogger('silent'));
  const quota = { max: 1, windowMs: 500, counts: 'posts' as const };
  const rows = async () => (await server.db.query<{ target_id: string }>('SELECT target_id FROM account_admissions WHERE account_id = $1 ORDER BY seq', [account.rawId])).rows.map((r) => Number(r.target_id));

  const first = await target();
  assert.ok(await admit({ accountId: account.rawId, targetId: first, containers: 1, quota }) <= 0, 'the first goes at once');
  const second = await target();
  const wait = await admit({ accountId: account.rawId, targetId: second, containers: 1, quota });
  assert.ok(wait > 300 && wait <= 500, `the second waits for the window: ${wait} ms`);
  const { rows: [held] } = await server.db.query('SELECT error FROM targets WHERE id = $1', [second]);
  assert.match(held.error, /^waiting for the account's publishing quota \(1 per 0\.5 s\); it goes at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(await rows(), [first, second], 'both kept: the first is still in the window the second is placed by');

  await sleep(1_600); // both windows over, and a second since this worker's last sweep
  const third = await target();
  assert.ok(await admit({ accountId: account.rawId, targetId: third, containers: 1, quota }) <= 0);
  assert.deepEqual(await rows(), [third], 'the rows no later admission asks about are gone');
});
