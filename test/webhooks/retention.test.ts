// Retention of the outbox and the delivery log: old events whose deliveries are finished go, with
// their deliveries and attempts; an old event still pending stays; recent events stay.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { purgeExpiredEvents } from '../../src/webhooks/retention.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('expired finished events are removed with their deliveries and attempts; pending and recent ones stay', async () => {
  const org = await server.createOrg();
  const hook = await server.db.query<{ id: number }>(
    "INSERT INTO webhooks (org_id, name, url, events) VALUES ($1, 'r', 'https://hooks.example.com/r', '{post.published}') RETURNING id",
    [org.orgId],
  );
  const emit = () => emitEvent(server.db, org.orgId, 'post.published', { postId: 'p', orgId: 'o', socialAccounts: [] });
  const [oldDone, oldPending, recentDone] = [await emit(), await emit(), await emit()];
  await server.db.query("UPDATE events SET created_at = now() - interval '31 days' WHERE id = ANY($1)", [[oldDone, oldPending]]);
  await server.db.query("UPDATE webhook_deliveries SET state = 'delivered', finished_at = now() WHERE event_id = ANY($1)", [[oldDone, recentDone]]);
  const delivery = await server.db.query<{ id: number }>('SELECT id FROM webhook_deliveries WHERE event_id = $1', [oldDone]);
  await server.db.query(
    'INSERT INTO webhook_attempts (org_id, delivery_id, webhook_id, event_id, attempt_number, status_code) VALUES ($1, $2, $3, $4, 1, 200)',
    [org.orgId, delivery.rows[0]!.id, hook.rows[0]!.id, oldDone],
  );

  assert.equal(await purgeExpiredEvents(server.db, 30), 1);
  const events = await server.db.query<{ id: string }>('SELECT id FROM events WHERE org_id = $1 ORDER BY created_at', [org.orgId]);
  assert.deepEqual(events.rows.map((r) => r.id).sort(), [oldPending, recentDone].sort());
  const deliveries = await server.db.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1', [oldDone]);
  assert.equal(deliveries.rowCount, 0, 'its deliveries went with it');
  const attempts = await server.db.query('SELECT 1 FROM webhook_attempts WHERE event_id = $1', [oldDone]);
  assert.equal(attempts.rowCount, 0, 'and its attempts');
  assert.equal(await purgeExpiredEvents(server.db, 30), 0, 'a second pass finds nothing');
});
