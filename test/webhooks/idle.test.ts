// An idle webhook deliverer sleeps while it listens: with nothing due it asks the database again only
// when an event is fanned out (the notification wakes it) or when the next delivery falls due. It used
// to look every second, two queries a second from every idle worker.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { startWebhookDeliverer } from '../../src/webhooks/worker.ts';
import { countingQueries } from '../helpers/counted-db.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('an idle deliverer makes a handful of queries in three seconds, not one or more a second', async () => {
  const counted = countingQueries(server.db);
  const deliverer = await startWebhookDeliverer(server.config, { db: counted.db, box: server.box, logger: createLogger('silent') });
  try {
    await sleep(3_000);
    assert.ok(counted.queries() <= 3, `${counted.queries()} queries in 3 s while idle`);
  } finally {
    await deliverer.stop();
  }
});
