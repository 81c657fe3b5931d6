// Inbound deliveries with real `crier worker` processes: deliveries acknowledged while the only
// worker lies killed (SIGKILL) wait in the database and are processed once by the next worker —
// nothing lost, nothing emitted twice; and a delivery whose processing fails is tried again until it
// succeeds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { workerProcesses } from '../helpers/process.ts';
import { TEST_SECRET_KEY_HEX } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';
import { startInboundStack, type InboundStack } from '../helpers/inbound.ts';

let s: InboundStack;
const workers = workerProcesses(() => ({
  DATABASE_URL: s.server.databaseUrl,
  CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX,
  CRIER_INSTAGRAM_BASE_URL: s.fb.url,
  CRIER_ALLOW_LOOPBACK_FETCH: 'true',
  LOG_LEVEL: 'warn',
}));

before(async () => {
  s = await startInboundStack({ worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

const pending = async () => (await s.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inbound_deliveries WHERE processed_at IS NULL')).rows[0]!.n;

describe('inbound processing with real worker processes', { concurrency: false }, () => {
  test('deliveries acknowledged while the worker is killed are processed once by the next one', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'night_owl' });
    const first = await workers.start();
    const early = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799600001', from: contact.id, text: 'before the crash' });
    await s.settled();
    first.child.kill('SIGKILL');
    await first.exited;

    const comment = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799600001', from: contact.id, text: 'during the outage' });
    const message = await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'anyone there?' });
    const redelivered = await s.fb.instagramMessaging.redeliver(s.fb.instagramMessaging.deliveries().length - 2);
    for (const delivery of [comment.delivery, message.delivery, redelivered]) assert.equal(delivery.status, 200, 'acknowledged: stored before the answer');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await pending(), 2, 'nothing processed them yet; the redelivery is the row already stored');
    assert.deepEqual((await s.events(['comment.received'])).map((e) => e.data.text), ['before the crash']);

    const second = await workers.start();
    await s.settled();
    const comments = await s.events(['comment.received']);
    assert.deepEqual(comments.map((e) => e.data.commentId), [early.comment.id, comment.comment.id], 'each comment once, the redelivery included');
    const received = await s.events(['message.received']);
    assert.deepEqual(received.map((e) => e.data.content), ['anyone there?']);
    assert.equal((await s.events(['conversation.started'])).length, 1);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  test('a delivery whose processing fails is kept and tried again until it succeeds', async () => {
    // A fault in the database while the comment is processed (a trigger refusing the dedupe row).
    await s.server.db.query(`CREATE FUNCTION refuse_inbound() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
    await s.server.db.query('CREATE TRIGGER refuse_inbound BEFORE INSERT ON inbound_seen FOR EACH ROW EXECUTE FUNCTION refuse_inbound()');
    const worker = await workers.start();
    const contact = s.fb.instagramMessaging.addContact({ username: 'unlucky' });
    const { comment, delivery } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799600002', from: contact.id, text: 'will it arrive?' });
    assert.equal(delivery.status, 200);
    const failed = await until(async () => {
      const { rows } = await s.server.db.query<{ attempts: number; last_error: string | null }>('SELECT attempts, last_error FROM inbound_deliveries WHERE processed_at IS NULL');
      return rows[0]?.last_error ? rows[0] : undefined;
    });
    assert.match(failed.last_error!, /injected fault/);
    assert.deepEqual((await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id), []);
    await s.server.db.query('DROP TRIGGER refuse_inbound ON inbound_seen');
    await s.settled();
    assert.equal((await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id).length, 1);
    worker.child.kill('SIGTERM');
    await worker.exited;
  });
});

describe('retention', () => {
  test('processed deliveries older than 7 days and dedupe keys older than 30 days are removed; the rest stays', async () => {
    const { purgeInbound } = await import('../../src/inbound/queue.ts');
    await s.server.db.query(`UPDATE inbound_deliveries SET processed_at = now() - interval '8 days' WHERE id = (SELECT min(id) FROM inbound_deliveries)`);
    await s.server.db.query(`UPDATE inbound_seen SET seen_at = now() - interval '31 days' WHERE ctid = (SELECT min(ctid) FROM inbound_seen)`);
    const before = (await s.server.db.query<{ d: number; k: number }>('SELECT (SELECT count(*)::int FROM inbound_deliveries) AS d, (SELECT count(*)::int FROM inbound_seen) AS k')).rows[0]!;
    assert.equal(await purgeInbound(s.server.db), 2);
    const now = (await s.server.db.query<{ d: number; k: number }>('SELECT (SELECT count(*)::int FROM inbound_deliveries) AS d, (SELECT count(*)::int FROM inbound_seen) AS k')).rows[0]!;
    assert.deepEqual(now, { d: before.d - 1, k: before.k - 1 });
  });
});
