// Thousands of random and mutated create bodies: never a 5xx, never a crash, and a rejected body
// stores nothing. Bodies are mutations of valid ones, so they reach the deep rules, not just the
// first type check.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { NETWORKS } from '../../src/networks/types.ts';
import { countRows, startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { blockCases } from './platform-blocks.cases.ts';

let server: TestServer;
let org: TestOrg;
let accountIds: string[];

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  accountIds = [];
  for (const network of NETWORKS) accountIds.push((await server.addAccount(org, network)).id);
});
after(() => server.close());

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const keys = fc.constantFrom('accounts', 'content', 'containers', 'scheduledAt', 'isDraft', 'processMedia', 'media', 'url', 'filename',
  'altText', '__proto__', 'constructor', ...NETWORKS, 'publishAsStory', 'board_id', 'subreddit', 'title', 'mentions', 'event', 'postMode');

/** Replaces, deletes or adds one value somewhere in `body`. */
function mutate(body: unknown, path: number[], key: string, value: unknown, op: number): unknown {
  if (body === null || typeof body !== 'object') return value;
  const copy: any = Array.isArray(body) ? [...body] : { ...body };
  const entries = Object.keys(copy);
  if (path.length === 0 || entries.length === 0) {
    if (op === 0) copy[key] = value;
    else if (op === 1) delete copy[entries[0] ?? key];
    else copy[entries[(path[0] ?? 0) % Math.max(1, entries.length)] ?? key] = value;
    return copy;
  }
  const child = entries[path[0]! % entries.length]!;
  copy[child] = mutate(copy[child], path.slice(1), key, value, op);
  return copy;
}

test('no 5xx and nothing stored on rejection, over 2,000 generated bodies', async () => {
  const seeds = blockCases.map((c) => ({ ...c.body, accounts: accountIds.slice(0, c.networks.length) }));
  const arbitraryBody = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.array(fc.nat(), { maxLength: 4 }), keys, jsonValue, fc.nat(2)).map(([seed, path, key, value, op]) => mutate(seed, path, key, value, op)) },
    { weight: 1, arbitrary: fc.dictionary(keys, jsonValue, { maxKeys: 6 }) },
    { weight: 1, arbitrary: jsonValue },
  );
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(arbitraryBody, async (body) => {
      const before = await countRows(server.db, 'posts', org.orgId);
      const res = await server.request('POST', '/v1/posts', { key: org.key, body });
      assert.ok(res.status < 500, `status ${res.status} for ${JSON.stringify(body).slice(0, 500)}: ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body, 'object');
      if (res.status >= 400) {
        rejected += 1;
        assert.equal(res.body.success, false);
        assert.equal(await countRows(server.db, 'posts', org.orgId), before, 'a rejected body stored a post');
      } else {
        assert.equal(await countRows(server.db, 'posts', org.orgId), before + 1);
      }
    }),
    { numRuns: 2000 },
  );
  assert.ok(rejected > 200, `only ${rejected} bodies were rejected: the generator is too tame`);
});

test('random bytes as the body never 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 200 }), async (raw) => {
      const res = await server.request('POST', '/v1/posts', { key: org.key, rawBody: raw });
      assert.ok(res.status < 500, `status ${res.status} for ${JSON.stringify(raw)}`);
    }),
    { numRuns: 300 },
  );
});
