// An idle import runner sleeps while it listens: with no job queued or running it asks the database
// again only when a job is queued (the notification wakes it). A NULL read as "due now" once made
// every idle worker look every 25 ms.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { startImportRunner } from '../../src/engagement/import-worker.ts';
import { createLogger } from '../../src/log.ts';
import { countingQueries } from '../helpers/counted-db.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('an idle import runner makes a handful of queries in three seconds, not one every 25 ms', async () => {
  const counted = countingQueries(server.db);
  const runner = startImportRunner({ db: counted.db, box: server.box, networks: server.networks, logger: createLogger('silent'), userFetch: fetch });
  try {
    await sleep(3_000);
    assert.ok(counted.queries() <= 3, `${counted.queries()} queries in 3 s while idle`);
  } finally {
    await runner.stop();
  }
});
