// An idle inbound processor sleeps: with nothing stored it neither claims nor asks again until a
// delivery is stored (it is woken by the notification) or a stored one falls due. It used to take
// "nothing waits" for "due now" (SQL's greatest() ignores a NULL) and ask the database every 10 ms.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { msUntilNextDue } from '../../src/inbound/queue.ts';
import { startInboundWorker } from '../../src/inbound/worker.ts';
import { createLogger } from '../../src/log.ts';
import { countingQueries } from '../helpers/counted-db.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const store = (dueInMs: number) =>
  server.db.query(`INSERT INTO inbound_deliveries (network, account_ids, headers, query, body, next_attempt_at)
                   VALUES ('instagram', '{}', '{}', '{}', '\\x', now() + make_interval(secs => $1::float8 / 1000))`, [dueInMs]);

test('when the next delivery is due: none waiting is undefined, a later one its wait, an overdue one 0', async () => {
  assert.equal(await msUntilNextDue(server.db), undefined);
  await store(60_000);
  const ms = (await msUntilNextDue(server.db))!;
  assert.ok(ms > 55_000 && ms <= 60_000, `${ms} ms`);
  await store(-5_000);
  assert.equal(await msUntilNextDue(server.db), 0);
  await server.db.query('DELETE FROM inbound_deliveries');
});

test('an idle processor makes a handful of queries in two seconds, not hundreds', async () => {
  const counted = countingQueries(server.db);
  const worker = startInboundWorker({ db: counted.db, box: server.box, logger: createLogger('silent'), networks: server.networks, allowLoopbackFetch: true });
  try {
    await sleep(2_000);
    assert.ok(counted.queries() <= 6, `${counted.queries()} queries in 2 s while idle`);
  } finally {
    await worker.stop();
  }
});
