// Thousands of random and mutated create bodies: never a 5xx, never a crash, and a rejected body
// stores nothing. Bodies are mutations of valid ones, so they reach the deep rules, not just the
// first type check. Some values are what no route can store or walk (NUL characters, unpaired
// surrogates, numbers beyond double range, deep nesting): a body holding one anywhere is a 400.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { NETWORKS } from '../../src/networks/ids.ts';
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
/** JSON.stringify cannot write 1e400 (it would be null): the body carries this marker, replaced in the raw text. */
const HUGE_NUMBER = /"huge-number:([^"]+)"/g;
const HUGE_NUMBER_TEXT = /^huge-number:/;
const unstorable = fc.oneof(
  fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udfff', '\udbff\u0000'), fc.string({ maxLength: 8 })).map(([a, bad, b]) => a + bad + b),
  fc.constantFrom('1e400', '-1e400', '1.8e308').map((n) => `huge-number:${n}`),
  fc.integer({ min: 33, max: 3000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown),
);
const value = fc.oneof({ weight: 6, arbitrary: jsonValue }, { weight: 1, arbitrary: unstorable });
const keys = fc.constantFrom('accounts', 'content', 'containers', 'scheduledAt', 'isDraft', 'processMedia', 'media', 'url', 'filename',
  'altText', '__proto__', 'constructor', 'toString', 'a\u0000b', '\udc00', ...NETWORKS, 'publishAsStory', 'board_id', 'subreddit', 'title', 'mentions', 'event', 'postMode');

/** Whether the body holds a value of the `unstorable` kind somewhere (a key included): the server must refuse it. */
function holdsUnstorable(value: unknown, depth = 0): boolean {
  const badText = (text: string) => /\u0000|\p{Surrogate}/u.test(text);
  if (typeof value === 'string') return badText(value) || HUGE_NUMBER_TEXT.test(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= 32) return true;
  // What JSON.stringify writes: an array's elements, by index (mutate may give an array a named
  // property, not sent, or even replace its prototype through `__proto__`, so no array methods here).
  if (Array.isArray(value)) return Array.prototype.some.call(value, (item) => holdsUnstorable(item, depth + 1));
  return Object.entries(value).some(([key, item]) => badText(key) || holdsUnstorable(item, depth + 1));
}

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
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.array(fc.nat(), { maxLength: 4 }), keys, value, fc.nat(2)).map(([seed, path, key, value, op]) => mutate(seed, path, key, value, op)) },
    { weight: 1, arbitrary: fc.dictionary(keys, value, { maxKeys: 6 }) },
    { weight: 1, arbitrary: value },
  );
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(arbitraryBody, async (body) => {
      const before = await countRows(server.db, 'posts', org.orgId);
      const raw = JSON.stringify(body).replace(HUGE_NUMBER, '$1');
      const res = await server.request('POST', '/v1/posts', { key: org.key, rawBody: raw });
      assert.ok(res.status < 500, `status ${res.status} for ${raw.slice(0, 500)}: ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body, 'object');
      if (holdsUnstorable(body)) assert.equal(res.body.code, 'validation_error', `accepted ${raw.slice(0, 500)}: ${JSON.stringify(res.body)}`);
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
