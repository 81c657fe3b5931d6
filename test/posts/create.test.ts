// POST /v1/posts over real HTTP: the shape of the request and of the Post answered, and what is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;
let bsky: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'alice_x', { nickname: 'Alice on X', tenantId: 'tenant-a' });
  bsky = await server.addAccount(org, 'bluesky', 'alice.bsky.social');
});
after(() => server.close());

const post = (body: unknown, key = org.key) => server.request('POST', '/v1/posts', { key, body });

async function storedPosts(): Promise<number> {
  return countRows(server.db, 'posts', org.orgId);
}

describe('content and containers', () => {
  test('content is a single-container shortcut; the Post has every field of the spec', async () => {
    const res = await post({ accounts: [x.id, bsky.id], content: 'Hello world' });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal('warnings' in res.body, false, 'warnings only when non-empty');
    const p = res.body.post;
    assert.match(p.id, /^[A-Za-z0-9]{8,}$/);
    assert.match(p.orgId, /^[A-Za-z0-9]{8,}$/);
    assert.equal(p.publishedAt, null);
    assert.equal(p.scheduledAt, null);
    assert.equal(p.isDraft, false);
    assert.ok(!Number.isNaN(Date.parse(p.createdAt)));
    assert.deepEqual(p.socialAccounts, [
      { id: x.id, nickname: 'Alice on X', network: 'x', username: 'alice_x' },
      { id: bsky.id, nickname: 'alice.bsky.social', network: 'bluesky', username: 'alice.bsky.social' },
    ]);
    assert.equal(p.containers.length, 1);
    assert.equal(p.containers[0].content, 'Hello world');
    assert.deepEqual(p.containers[0].media, []);
    assert.match(p.containers[0].id, /^[A-Za-z0-9]{8,}$/);
    assert.equal(p.networkOverrideConfiguration, null);
    assert.equal(p.scheduled, true);
  });

  test('containers: first is root, defaults content "" and media [], media keep order and alt text', async () => {
    const res = await post({
      accounts: [bsky.id],
      containers: [
        { media: [{ url: 'https://cdn.example.com/a.png', filename: 'a.png', altText: 'A cat' }, { url: 'https://cdn.example.com/b.jpg', filename: 'b.jpg' }] },
        { content: 'second' },
      ],
    });
    assert.equal(res.status, 200);
    const [root, reply] = res.body.post.containers;
    assert.equal(root.content, '');
    assert.deepEqual(root.media.map((m: any) => [m.url, m.filename, m.altText]), [
      ['https://cdn.example.com/a.png', 'a.png', 'A cat'],
      ['https://cdn.example.com/b.jpg', 'b.jpg', null],
    ]);
    assert.equal(typeof root.media[0].id, 'number');
    assert.equal(reply.content, 'second');
    assert.deepEqual(reply.media, []);
    const rows = await server.db.query('SELECT position, content FROM containers WHERE post_id = (SELECT max(id) FROM posts WHERE org_id = $1) ORDER BY position', [org.orgId]);
    assert.deepEqual(rows.rows, [{ position: 0, content: '' }, { position: 1, content: 'second' }]);
  });

  test('both content and containers is a 400 and stores nothing', async () => {
    const before = await storedPosts();
    const res = await post({ accounts: [x.id], content: 'a', containers: [{ content: 'b' }] });
    assert.equal(res.status, 400);
    assert.equal(res.body.success, false);
    assert.ok(res.body.details.some((d: any) => d.field === 'content'));
    assert.equal(await storedPosts(), before);
  });

  test('neither content nor containers is a 400', async () => {
    const res = await post({ accounts: [x.id] });
    assert.equal(res.status, 400);
    assert.ok(res.body.details.some((d: any) => d.field === 'content'));
  });

  test('an empty container (no content, no media) is a 400 naming it', async () => {
    const res = await post({ accounts: [x.id], containers: [{ content: 'root' }, {}] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details.map((d: any) => d.field), ['containers[1]']);
  });

  test('media must be https with a filename that has an extension and no query', async () => {
    const res = await post({
      accounts: [x.id],
      containers: [{ media: [{ url: 'http://cdn.example.com/a.png', filename: 'a.png' }, { url: 'https://cdn.example.com/b', filename: 'b.png?x=1' }, { url: 'https://cdn.example.com/c' }] }],
    });
    assert.equal(res.status, 400);
    const fields = res.body.details.map((d: any) => d.field);
    assert.ok(fields.includes('containers[0].media[0].url'), JSON.stringify(fields));
    assert.ok(fields.includes('containers[0].media[1].filename'));
    assert.ok(fields.includes('containers[0].media[2].filename'));
  });

  test('wrong types are listed per field', async () => {
    const res = await post({ accounts: 'x', content: 5, isDraft: 'yes', processMedia: 1, scheduledAt: 'tomorrow' });
    assert.equal(res.status, 400);
    const fields = new Set(res.body.details.map((d: any) => d.field));
    for (const f of ['accounts', 'content', 'isDraft', 'processMedia', 'scheduledAt']) assert.ok(fields.has(f), `missing ${f}`);
  });
});

describe('accounts resolution (rules 1-3)', () => {
  test('an exact username resolves; so does the encoded id', async () => {
    const res = await post({ accounts: ['alice_x', bsky.id], content: 'hi' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.post.socialAccounts.map((a: any) => a.id), [x.id, bsky.id]);
  });

  test('a username shared across networks targets every account carrying it, active or not', async () => {
    const a = await server.addAccount(org, 'threads', 'shared_name');
    const b = await server.addAccount(org, 'linkedin', 'shared_name', { networkUniqueId: 'li-shared' });
    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [b.rawId]);
    const res = await post({ accounts: ['shared_name'], content: 'hi' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.post.socialAccounts.map((s: any) => s.id).sort(), [a.id, b.id].sort());
  });

  test('usernames match exactly: another case, a network name or a nickname does not resolve', async () => {
    for (const entry of ['ALICE_X', 'x', 'Alice on X', 'alice_']) {
      const res = await post({ accounts: [entry], content: 'hi' });
      assert.equal(res.status, 400, entry);
      assert.equal(res.body.code, 'no_account_resolved');
    }
  });

  test('unresolved entries are dropped silently when one resolves', async () => {
    const res = await post({ accounts: ['nobody', x.id, 'bogus-id-123'], content: 'hi' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.post.socialAccounts.map((a: any) => a.id), [x.id]);
    assert.equal('warnings' in res.body, false);
  });

  test('no entry resolving is a 400 and stores nothing', async () => {
    const before = await storedPosts();
    const res = await post({ accounts: ['nobody'], content: 'hi' });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].field, 'accounts');
    assert.equal(await storedPosts(), before);
  });

  test("another org's account id and usernames do not resolve", async () => {
    const other = await server.createOrg();
    const theirs = await server.addAccount(other, 'x', 'someone_else');
    const res = await post({ accounts: [theirs.id, 'someone_else'], content: 'hi' });
    assert.equal(res.status, 400);
  });

  test('the raw numeric id is not an account id (ids are opaque)', async () => {
    const res = await post({ accounts: [String(x.rawId)], content: 'hi' });
    assert.equal(res.status, 400);
  });

  test('the same account named twice is targeted once', async () => {
    const res = await post({ accounts: [x.id, 'alice_x', x.id], content: 'hi' });
    assert.equal(res.status, 200);
    assert.equal(res.body.post.socialAccounts.length, 1);
    const targets = await server.db.query('SELECT count(*)::int AS n FROM targets WHERE post_id = (SELECT max(id) FROM posts WHERE org_id = $1)', [org.orgId]);
    assert.equal(targets.rows[0].n, 1);
  });
});

describe('scheduledAt (rule 4)', () => {
  test('omitted: published immediately, its target is due now', async () => {
    const res = await post({ accounts: [x.id], content: 'now' });
    assert.equal(res.body.post.scheduledAt, null);
    const due = await dueFor(res.body.post.id);
    assert.equal(due.length, 1);
    assert.ok(Math.abs(due[0]!.getTime() - Date.now()) < 60_000);
  });

  test('in the past: published immediately', async () => {
    const past = new Date(Date.now() - 3600_000).toISOString();
    const res = await post({ accounts: [x.id], content: 'past', scheduledAt: past });
    assert.equal(res.status, 200);
    assert.equal(res.body.post.scheduledAt, past);
    assert.equal(res.body.post.scheduled, true);
    const due = await dueFor(res.body.post.id);
    assert.ok(due[0]!.getTime() <= Date.now() + 1000);
  });

  test('in the future within 30 days: its targets are due at scheduledAt', async () => {
    const at = new Date(Date.now() + 29 * 86400_000);
    const res = await post({ accounts: [x.id, bsky.id], content: 'later', scheduledAt: at.toISOString() });
    assert.equal(res.status, 200);
    assert.equal(res.body.post.scheduledAt, at.toISOString());
    const due = await dueFor(res.body.post.id);
    assert.equal(due.length, 2);
    for (const when of due) assert.equal(when.getTime(), at.getTime());
  });

  test('more than 30 days ahead: 400, nothing stored, nothing queued', async () => {
    const before = await storedPosts();
    const dueBefore = await countDue();
    const res = await post({ accounts: [x.id], content: 'too far', scheduledAt: new Date(Date.now() + 31 * 86400_000).toISOString() });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details.map((d: any) => d.field), ['scheduledAt']);
    assert.equal(await storedPosts(), before);
    assert.equal(await countDue(), dueBefore);
  });

  test('a date-time without a time zone is rejected', async () => {
    const res = await post({ accounts: [x.id], content: 'tz', scheduledAt: '2030-01-01T10:00:00' });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].field, 'scheduledAt');
  });
});

describe('drafts and processMedia', () => {
  test('a draft is stored, never queued, scheduled false', async () => {
    const dueBefore = await countDue();
    const res = await post({ accounts: [x.id], content: 'draft', isDraft: true });
    assert.equal(res.status, 200);
    assert.equal(res.body.post.isDraft, true);
    assert.equal(res.body.post.scheduled, false);
    assert.deepEqual(await dueFor(res.body.post.id), []);
    assert.equal(await countDue(), dueBefore);
  });

  test('processMedia is stored and shown', async () => {
    const res = await post({ accounts: [x.id], content: 'video', processMedia: true });
    assert.equal(res.body.post.processMedia, true);
    const row = await server.db.query('SELECT process_media FROM posts WHERE org_id = $1 ORDER BY id DESC LIMIT 1', [org.orgId]);
    assert.equal(row.rows[0].process_media, true);
  });
});

describe('unknown keys become warnings', () => {
  test('top-level unknown and deprecated keys are dropped and listed', async () => {
    const res = await post({
      accounts: [x.id],
      content: 'hi',
      socialAccountIds: [1],
      mediaIds: [2],
      networkOverrideConfiguration: { xConfiguration: {} },
      colour: 'blue',
    });
    assert.equal(res.status, 200);
    const w: string[] = res.body.warnings;
    assert.equal(w.length, 4);
    for (const key of ['socialAccountIds', 'mediaIds', 'networkOverrideConfiguration', 'colour']) {
      assert.ok(w.some((s) => s.includes(`"${key}"`)), `no warning for ${key}: ${JSON.stringify(w)}`);
    }
  });

  test('a wrongly cased key inside a block is dropped, warned, and not stored', async () => {
    const res = await post({ accounts: [x.id], content: 'hi', instagram: { publishasstory: true, caption: 'c' } });
    assert.equal(res.status, 200);
    assert.ok(res.body.warnings.some((s: string) => s.includes('"instagram.publishasstory"')));
    assert.deepEqual(res.body.post.networkOverrideConfiguration, { instagramConfiguration: { caption: 'c' } });
    const row = await server.db.query('SELECT network_options FROM posts WHERE org_id = $1 ORDER BY id DESC LIMIT 1', [org.orgId]);
    assert.deepEqual(row.rows[0].network_options, { instagram: { caption: 'c' } });
  });

  test('unknown keys inside containers and media are dropped too', async () => {
    const res = await post({ accounts: [x.id], containers: [{ content: 'a', text: 'b', media: [{ url: 'https://c.example.com/a.png', filename: 'a.png', alt: 'x' }] }] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.warnings.sort(), ['Unknown key "containers[0].media[0].alt" was ignored', 'Unknown key "containers[0].text" was ignored']);
  });
});

describe('network overrides', () => {
  test('blocks are stored and shown keyed <network>Configuration', async () => {
    const res = await post({ accounts: [x.id], content: 'hi', x: { content: 'for x' }, tiktok: { postMode: 'MEDIA_UPLOAD' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.post.networkOverrideConfiguration, {
      xConfiguration: { content: 'for x' },
      tiktokConfiguration: { postMode: 'MEDIA_UPLOAD' },
    });
  });
});

describe('bad bodies never 500', () => {
  test('malformed JSON is a 400', async () => {
    const res = await server.request('POST', '/v1/posts', { key: org.key, rawBody: '{"accounts": [' });
    assert.equal(res.status, 400);
    assert.equal(res.body.success, false);
    assert.equal(res.body.code, 'invalid_json');
  });

  test('a body that is not an object is a 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const res = await server.request('POST', '/v1/posts', { key: org.key, rawBody: raw });
      assert.equal(res.status, 400, raw);
      assert.equal(res.body.success, false);
    }
  });

  test('an oversized body is a 413', async () => {
    const res = await post({ accounts: [x.id], content: 'a'.repeat(2 * 1024 * 1024) });
    assert.equal(res.status, 413);
    assert.equal(res.body.code, 'payload_too_large');
  });

  // The hardening review: __proto__ is a valid JSON key, so it is an unknown key like any other.
  test('__proto__ in the body is dropped with a warning, not merged', async () => {
    const res = await server.request('POST', '/v1/posts', { key: org.key, rawBody: '{"accounts":["alice_x"],"content":"x","__proto__":{"isDraft":true}}' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.warnings, ['Unknown key "__proto__" was ignored']);
    assert.equal(res.body.post.isDraft, false);
  });
});

/** When the post's targets are due: the publishing queue is the targets table (none for a draft). */
async function dueFor(postId: string): Promise<Date[]> {
  const { decodeId } = await import('../../src/core/ids.ts');
  const { rows } = await server.db.query('SELECT due_at FROM targets WHERE post_id = $1 AND due_at IS NOT NULL ORDER BY id', [decodeId(postId)]);
  return rows.map((r) => r.due_at);
}

async function countDue(): Promise<number> {
  const { rows } = await server.db.query('SELECT count(*)::int AS n FROM targets WHERE due_at IS NOT NULL');
  return rows[0].n;
}
