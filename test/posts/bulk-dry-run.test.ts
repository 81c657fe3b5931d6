// POST /v1/posts/bulk?dry_run=true over real HTTP: a verdict per row that is the single dry run's
// judgement (the create's 400 as the row's details, each destination's network judgement), fast for a
// 10,000-row file, a file refused whole with a 400 naming what is wrong, and nothing stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;
let bluesky: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'bulk_x');
  bluesky = await server.addAccount(org, 'bluesky', 'bulk.bsky.social');
});
after(() => server.close());

const bulk = (rawBody: string, contentType = 'text/csv', query = '?dry_run=true') =>
  server.request('POST', `/v1/posts/bulk${query}`, { key: org.key, rawBody, headers: { 'content-type': contentType } });
const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('a 10,000-row CSV', () => {
  test('dry-runs in seconds, with the create\'s and the networks\' judgement per row', async () => {
    // Five kinds of row, in turn: good on both accounts; too long for X (publishing would fail it);
    // an account nobody has; scheduled past the 30-day window; a quoted text with a comma, a quote and a line break.
    const kinds = [
      (i: number) => [`${x.id} ${bluesky.username}`, `row ${i} fine`, inDays(1)],
      (i: number) => [x.username, `row ${i} ${'a'.repeat(300)}`, ''],
      (i: number) => ['nobody_here', `row ${i}`, ''],
      (i: number) => [x.id, `row ${i}`, inDays(31)],
      (i: number) => [`${x.id},${bluesky.id}`, `row ${i}, "quoted"\nsecond line`, ''],
    ];
    const lines = ['accounts,content,scheduledAt'];
    for (let i = 0; i < 10_000; i++) lines.push(kinds[i % 5]!(i + 1).map(quote).join(','));
    const started = performance.now();
    const res = await bulk(lines.join('\r\n'));
    const seconds = (performance.now() - started) / 1000;
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
    console.log(`bulk dry run of 10,000 CSV rows: ${seconds.toFixed(2)} s`);
    assert.ok(seconds < 10, `took ${seconds.toFixed(2)} s`);
    assert.equal(res.body.total, 10_000);
    assert.equal(res.body.rows.length, 10_000);
    assert.equal(res.body.ok, 4000, 'the good rows and the quoted ones');
    assert.deepEqual(res.body.rows.map((r: any) => r.row).slice(0, 3), [1, 2, 3]);

    const [good, long, unknown, late, quoted] = res.body.rows.slice(5000, 5005);
    assert.equal(good.row, 5001);
    assert.deepEqual([good.ok, good.accepted], [true, true]);
    assert.deepEqual(good.destinations.map((d: any) => [d.accountId, d.ok]), [[x.id, true], [bluesky.id, true]]);
    assert.deepEqual([long.ok, long.accepted], [false, true], 'the create stores it; publishing would fail X');
    assert.match(long.destinations[0].reasons[0], /X allows 280/);
    assert.deepEqual([unknown.ok, unknown.accepted, unknown.code], [false, false, 'no_account_resolved']);
    assert.deepEqual(unknown.details, [{ field: 'accounts', message: 'no entry matches an account id or exact username of this organization' }]);
    assert.deepEqual([late.ok, late.code, late.details], [false, 'validation_error', [{ field: 'scheduledAt', message: 'must be at most 30 days in the future' }]]);
    assert.equal(quoted.ok, true, JSON.stringify(quoted));
    assert.equal(quoted.destinations.length, 2);
    assert.equal(await countRows(server.db, 'posts', org.orgId), 0, 'a dry run stores nothing');
  });
});

describe('rows as the create judges them', () => {
  test('media by URL, blocks by <network>.<field>, drafts: each row the body POST /v1/posts takes', async () => {
    const youtube = await server.addAccount(org, 'youtube', 'bulk_yt');
    const csv = [
      'accounts,content,media,youtube.title,isDraft',
      `${youtube.id},A clip,https://cdn.example.com/clips/clip.mp4,My clip,false`,
      `${youtube.id},No video,,Title,`,
      `${x.id},Draft,,,maybe`,
    ].join('\n');
    const res = await bulk(csv);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [clip, noVideo, draft] = res.body.rows;
    assert.deepEqual([clip.ok, clip.destinations[0].network], [true, 'youtube'], JSON.stringify(clip));
    assert.equal(noVideo.accepted, false, 'YouTube needs a video: the create\'s own 400');
    assert.ok(noVideo.details.length > 0);
    assert.deepEqual(draft.details, [{ field: 'isDraft', message: 'must be boolean' }]);
  });

  test('"next-free-slot" rows take successive slots, as the import creating them in order would', async () => {
    const account = await server.addAccount(org, 'linkedin', 'bulk_li');
    const slots = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({ day, time: '09:00' }));
    const queue = await server.request('POST', '/v1/queues', { key: org.key, body: { socialAccountId: account.id, timeZone: 'UTC', slots } });
    assert.equal(queue.status, 201, JSON.stringify(queue.body));
    const res = await bulk(['accounts,content,scheduledAt', `${account.id},one,next-free-slot`, `${account.id},two,next-free-slot`].join('\n'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [first, second] = res.body.rows.map((r: any) => Date.parse(r.scheduledAt));
    assert.equal(new Date(first).getUTCHours(), 9);
    assert.equal(second - first, 86_400_000, 'the second row gets the day after');
  });

  test('JSON lines: each line a create body; a line that is not JSON is that row\'s problem', async () => {
    const ndjson = [
      JSON.stringify({ accounts: [x.id], content: 'from json' }),
      '',
      '{"accounts": [',
      JSON.stringify({ accounts: [x.id], content: 'a', containers: [{ content: 'b' }] }),
    ].join('\n');
    const res = await bulk(ndjson, 'application/x-ndjson');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.rows.map((r: any) => [r.row, r.ok]), [[1, true], [2, false], [3, false]]);
    assert.equal(res.body.rows[1].details[0].field, '(row)');
    assert.match(res.body.rows[1].details[0].message, /is not JSON/);
    assert.deepEqual(res.body.rows[2].details, [{ field: 'content', message: 'send either "content" or "containers", not both' }]);
  });
});

describe('a file refused whole: 400 with details, nothing stored', () => {
  const refused = async (rawBody: string, field: RegExp, contentType = 'text/csv', status = 400) => {
    const res = await bulk(rawBody, contentType);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.success, false);
    assert.ok(res.body.details.some((d: any) => field.test(d.field)), JSON.stringify(res.body.details));
    return res.body;
  };

  test('a quoted field never closed, or text after a closing quote', async () => {
    const open = await refused(`accounts,content\n${x.id},fine\n${x.id},"never closed\n${x.id},next`, /^\(line 3\)$/);
    assert.equal(open.details[0].message, 'a quoted field is never closed');
    await refused(`accounts,content\n${x.id},"closed"then text`, /^\(line 2\)$/);
  });

  test('more than 10,000 rows', async () => {
    const body = await refused(['accounts,content', ...Array.from({ length: 10_001 }, (_, i) => `${x.id},row ${i}`)].join('\n'), /^\(body\)$/);
    assert.equal(body.details[0].message, 'has 10001 rows; one import takes at most 10000');
  });

  test('empty, a header alone, an unknown or repeated column, no accounts column', async () => {
    await refused('', /^\(body\)$/);
    await refused('accounts,content\n', /^\(body\)$/);
    await refused('\n\n', /^\(body\)$/, 'application/x-ndjson');
    const unknown = await refused(`accounts,content,colour\n${x.id},a,red`, /^\(header\)\[2\]$/);
    assert.match(unknown.details[0].message, /unknown column "colour"/);
    await refused(`accounts,content,content\n${x.id},a,b`, /^\(header\)\[2\]$/);
    await refused('content\nhello', /^\(header\)$/);
  });

  test('a content type that is no file format: 415', async () => {
    await refused(JSON.stringify({ accounts: [x.id], content: 'a' }), /^Content-Type$/, 'application/json', 415);
  });

  test('nothing was stored by any of them', async () => {
    assert.equal(await countRows(server.db, 'bulk_imports', org.orgId), 0);
    assert.equal(await countRows(server.db, 'posts', org.orgId), 0);
  });
});
