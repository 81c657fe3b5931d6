// A page's limit and offset reach PostgreSQL as bound parameters, never as text of the statement:
// whatever got past a route's schema could not change the SQL. The one number written into a
// statement's text (the first page of GET /v1/posts, for its generic plan: posts/list.ts) is an
// integer of the page range, one of 100 fixed strings.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listSocialAccounts } from '../../src/accounts/social-accounts.ts';
import type { Db } from '../../src/db/pool.ts';
import { listStatement } from '../../src/posts/list.ts';
import { listAttempts } from '../../src/webhooks/queue.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'true' });
  org = await server.createOrg();
  for (const name of ['a1', 'a2', 'a3']) await server.addAccount(org, 'bluesky', name);
});
after(() => server.close());

/** The real pool, with the statements it is sent written down. */
function recording(db: Db): { db: Db; sent: { text: string; values: unknown[] }[] } {
  const sent: { text: string; values: unknown[] }[] = [];
  const proxy = new Proxy(db, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name === 'query') {
        return (text: string, values: unknown[] = []) => {
          sent.push({ text, values });
          return (value as (t: string, v: unknown[]) => unknown).call(target, text, values);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Db;
  return { db: proxy, sent };
}

const PAGE_NUMBERS = /\b(LIMIT|OFFSET)\s+(?!\$)\S+/;

test('the accounts list binds its page, and pages as before', async () => {
  const { db, sent } = recording(server.db);
  const page = await listSocialAccounts(db, org.orgId, { limit: 2, offset: 1 });
  assert.deepEqual([page.data.map((a) => a.username), page.count], [['a2', 'a3'], 3]);
  const statement = sent.find((s) => /LIMIT/.test(s.text))!;
  assert.doesNotMatch(statement.text, PAGE_NUMBERS, statement.text);
  assert.deepEqual(statement.values.slice(-2), [2, 1]);
});

test("a webhook's delivery log binds its page", async () => {
  const hook = await server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'h', url: 'https://127.0.0.1:9/h', events: ['post.published'] } });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const { rows } = await server.db.query<{ id: number }>('SELECT id FROM webhooks WHERE org_id = $1', [org.orgId]);
  const { db, sent } = recording(server.db);
  const page = await listAttempts(db, org.orgId, rows[0]!.id, { limit: 7, offset: 3 });
  assert.deepEqual([page?.limit, page?.offset, page?.count], [7, 3, 0]);
  const statement = sent.find((s) => /LIMIT/.test(s.text))!;
  assert.doesNotMatch(statement.text, PAGE_NUMBERS, statement.text);
  assert.deepEqual(statement.values.slice(-2), [7, 3]);
});

test("the posts list: deeper pages bound; a first page's LIMIT is only ever 1 to 100", () => {
  const deeper = listStatement(org.orgId, {}, 20, 40);
  assert.doesNotMatch(deeper.text, PAGE_NUMBERS);
  assert.ok(deeper.values.includes(20) && deeper.values.includes(40));
  assert.match(listStatement(org.orgId, {}, 100, 0).text, /LIMIT 100\b/);
  for (const limit of [0, 101, 1e6, Infinity, Number.NaN, 1.5]) assert.throws(() => listStatement(org.orgId, {}, limit, 0), RangeError, String(limit));
});
