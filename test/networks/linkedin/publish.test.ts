// Publishing to LinkedIn over real HTTP: Crier's API and worker (the registry's LinkedIn adapter), the
// LinkedIn emulator as the network, media uploaded to Crier or served from another HTTPS host. Each
// test checks what LinkedIn received — the post's author, commentary, content, the uploaded bytes,
// the comments and their order — and what Crier reports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../../emulators/linkedin/server.ts';
import { LINKEDIN_SCOPES } from '../../../src/networks/linkedin/oauth.ts';
import { decodeId, encodeId } from '../../../src/core/ids.ts';
import { notifyDue } from '../../../src/publishing/queue.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1, type PublishingStack } from '../../helpers/publishing.ts';
import { makeJpeg, makeVideo, paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import { until } from '../../helpers/until.ts';

const APP = { clientId: 'crier-linkedin', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A one-page PDF is not needed: LinkedIn's emulator checks the magic bytes, as LinkedIn's processing would reject anything else. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe('publishing to LinkedIn', () => {
  let li: LinkedInEmulator;
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;
  let member: TestAccount & { urn: string };
  let company: TestAccount & { urn: string };

  before(async () => {
    li = await startLinkedInEmulator();
    li.addApp(APP);
    const ada = li.addUser({ name: 'Ada Lovelace' });
    const acme = li.addOrganization({ localizedName: 'Acme' });
    li.grantRole(acme.id, ada.sub);
    h = await startMediaPublishing({ CRIER_LINKEDIN_BASE_URL: li.url });
    h.stack.media.route('/deck.pdf', (_req, res) => { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(PDF); });
    org = await h.server.createOrg();
    const token = li.oauth.issue(ada.sub, APP.clientId, LINKEDIN_SCOPES).accessToken;
    const add = async (username: string, urn: string) => ({ ...(await h.server.addAccount(org, 'linkedin', username, { networkUniqueId: urn, accessToken: token })), urn });
    member = await add('ada', `urn:li:person:${ada.sub}`);
    company = await add('acme', `urn:li:organization:${acme.id}`);
  });
  after(async () => {
    await h.close();
    await li.close();
  });

  const publish = async (body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return h.stack.waitForPost(org, created.body.post.id, undefined, 30_000);
  };
  const published = (post: any, index = 0) => {
    const destination = post.socialAccounts[index];
    assert.equal(destination.status, 'published', destination.error);
    return li.posts().find((p) => p.urn === destination.platformPostId)!;
  };

  it('a member\'s text post: commentary escaped as little text, the mention at its first occurrence, hashtags kept', async () => {
    const text = 'Shipping v2 (finally) with Acme #launch — thanks Acme_team!';
    const post = await publish({ accounts: [member.id], content: text, linkedin: { mentions: [{ urn: company.urn, text: 'Acme' }] } });
    const sent = published(post);
    assert.equal(sent.author, member.urn);
    assert.equal(sent.truncated, false, 'nothing was cut at a reserved character');
    assert.equal(sent.commentarySent, 'Shipping v2 \\(finally\\) with @[Acme](' + company.urn + ') #launch — thanks Acme\\_team!');
    assert.deepEqual(sent.mentions.map((m) => [m.name, m.urn]), [['Acme', company.urn]]);
    assert.equal(sent.visibility, 'PUBLIC');
    assert.equal(sent.lifecycleState, 'PUBLISHED');
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.linkedin.com/feed/update/${sent.urn}/`);
  });

  it('an organization\'s thread: the root is a post by the organization, later containers its comments, in order', async () => {
    const post = await publish({ accounts: [company.id], containers: [{ content: 'Quarterly results' }, { content: 'Revenue up' }, { content: 'Details at acme.example' }] });
    const sent = published(post);
    assert.equal(sent.author, company.urn);
    const comments = li.comments(sent.urn);
    assert.deepEqual(comments.map((c) => [c.actor, c.text]), [[company.urn, 'Revenue up'], [company.urn, 'Details at acme.example']]);
  });

  it('one uploaded image, with its alt text and the caption as the media title', async () => {
    const jpeg = await makeJpeg();
    const media = await h.upload(org, 'chart.jpg', jpeg, 'image/jpeg');
    const post = await publish({ accounts: [member.id], containers: [{ content: 'The chart', media: [{ url: media.url, filename: media.filename, altText: 'a rising line' }] }], linkedin: { caption: 'Q3 chart' } });
    const sent = published(post);
    const image = li.images().find((i) => i.urn === (sent.content as any).media.id)!;
    assert.deepEqual(sent.content, { media: { id: image.urn, title: 'Q3 chart', altText: 'a rising line' } });
    assert.equal(image.owner, member.urn);
    assert.equal(image.sha256, sha256(jpeg), 'LinkedIn received the uploaded bytes');
  });

  it('several images, one uploaded to Crier and one from another HTTPS host, as a multi-image post', async () => {
    const jpeg = await makeJpeg('64x64');
    const media = await h.upload(org, 'a.jpg', jpeg, 'image/jpeg');
    const post = await publish({ accounts: [company.id], containers: [{ content: 'Two pictures', media: [
      { url: media.url, filename: 'a.jpg', altText: 'first' },
      { url: `${h.stack.media.url}/cat.png`, filename: 'cat.png', altText: 'second' },
    ] }] });
    const sent = published(post);
    const images = (sent.content as any).multiImage.images as { id: string; altText: string }[];
    assert.deepEqual(images.map((i) => i.altText), ['first', 'second']);
    assert.deepEqual(images.map((i) => li.images().find((x) => x.urn === i.id)!.sha256), [sha256(jpeg), sha256(PNG_1X1)]);
  });

  it('a PDF from an HTTPS host as a document post titled with its file name', async () => {
    const post = await publish({ accounts: [member.id], containers: [{ content: 'Our deck', media: [{ url: `${h.stack.media.url}/deck.pdf`, filename: 'deck.pdf' }] }], linkedin: { caption: 'ignored for documents' } });
    const sent = published(post);
    const document = li.documents().find((d) => d.urn === (sent.content as any).media.id)!;
    assert.deepEqual(sent.content, { media: { id: document.urn, title: 'deck.pdf' } });
    assert.equal(document.sha256, sha256(PDF));
  });

  it('an article card with a thumbnail uploaded as an image; the content is the commentary above it', async () => {
    const post = await publish({ accounts: [member.id], content: 'Worth a read', linkedin: { article: {
      source: 'https://example.com/post', title: 'The post', description: 'About things', thumbnailUrl: `${h.stack.media.url}/cat.png`,
    } } });
    const sent = published(post);
    const { article } = sent.content as any;
    assert.deepEqual({ ...article, thumbnail: undefined }, { source: 'https://example.com/post', title: 'The post', description: 'About things', thumbnail: undefined });
    assert.equal(li.images().find((i) => i.urn === article.thumbnail)!.sha256, sha256(PNG_1X1));
    assert.equal(sent.commentarySent, 'Worth a read');
  });

  it('an article card without a title: the dry run says LinkedIn requires one; the destination fails before any call', async () => {
    const body = { accounts: [member.id], content: 'Untitled link', linkedin: { article: { source: 'https://example.com/untitled' } } };
    const dry = await h.server.request('POST', '/v1/posts?dry_run=true', { key: org.key, body });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal(dry.body.destinations[0].ok, false);
    assert.deepEqual(dry.body.destinations[0].reasons, ['linkedin: linkedin.article has no title; LinkedIn requires the title of an article card (it does not read it from the page): set linkedin.article.title']);

    const calls = li.calls().length;
    const post = await publish(body);
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^linkedin: linkedin\.article has no title; LinkedIn requires the title/);
    assert.deepEqual(li.calls().slice(calls).filter((c) => c.path.startsWith('/rest/')), [], 'nothing was sent to LinkedIn');
  });

  it('a video is uploaded range by range, finalized with the ETags in order, and posted once available', async () => {
    const video = await makeVideo({ seconds: 1, size: '160x120', rate: 10 });
    const media = await h.upload(org, 'clip.mp4', video, 'video/mp4');
    const post = await publish({ accounts: [company.id], containers: [{ content: 'A clip', media: [{ url: media.url, filename: 'clip.mp4' }] }], linkedin: { caption: 'The clip' } });
    const sent = published(post);
    const uploaded = li.videos().find((v) => v.urn === (sent.content as any).media.id)!;
    assert.deepEqual(sent.content, { media: { id: uploaded.urn, title: 'The clip' } });
    assert.equal(uploaded.sha256, sha256(video));
    assert.equal(uploaded.finalized, true);
    assert.ok(uploaded.parts.every((p) => p.puts === 1), JSON.stringify(uploaded.parts));
  });

  it('a range LinkedIn answers with a 5xx is sent again by the next attempt, in the same upload session', async () => {
    const video = await paddedVideo(9 * 1024 * 1024); // three ranges
    const media = await h.upload(org, 'retried.mp4', video, 'video/mp4');
    li.failNext({ status: 503, method: 'PUT', path: /^\/dms-uploads\/video\/[^/]+\/1$/ });
    const inits = () => li.calls().filter((c) => c.path === '/rest/videos' && c.query.action === 'initializeUpload').length;
    const initsBefore = inits();
    const post = await publish({ accounts: [company.id], containers: [{ content: 'Retried clip', media: [{ url: media.url, filename: 'retried.mp4' }] }] });
    const sent = published(post);
    const uploaded = li.videos().find((v) => v.urn === (sent.content as any).media.id)!;
    assert.equal(inits() - initsBefore, 1, 'one upload session');
    assert.deepEqual(uploaded.parts.map((p) => p.puts), [1, 1, 1], 'the refused range arrived once, on the retry; the others once');
    assert.equal(uploaded.sha256, sha256(video));
    const attempts = await h.server.db.query(
      `SELECT a.outcome FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1 ORDER BY a.id`, [decodeId(post.id)],
    );
    assert.ok(attempts.rows.some((r) => r.outcome === 'retry'), JSON.stringify(attempts.rows));
  });

  it('a video LinkedIn keeps processing holds no worker: other posts publish meanwhile, and it posts once released', async () => {
    const video = await makeVideo({ seconds: 1, size: '160x120', rate: 10 });
    const media = await h.upload(org, 'slow.mp4', video, 'video/mp4');
    li.stickNextVideo();
    const slow = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [member.id], containers: [{ content: 'Slow clip', media: [{ url: media.url, filename: 'slow.mp4' }] }] } });
    assert.equal(slow.status, 200);
    // Finalized and waiting: the target is pending again with its checkpoint, no attempt running.
    const waiting = await until(async () => {
      const { rows } = await h.server.db.query(`SELECT status, checkpoint FROM targets WHERE post_id = $1`, [decodeId(slow.body.post.id)]);
      return rows[0]?.checkpoint?.media?.[0]?.video?.finalized ? rows[0] : undefined;
    });
    assert.equal(waiting.status, 'pending');
    const quick = await publish({ accounts: [member.id], content: 'Meanwhile, a quick one' });
    published(quick);
    const video0 = li.videos().find((v) => v.urn === waiting.checkpoint.media[0].urn)!;
    assert.equal(video0.status, 'PROCESSING');
    li.releaseVideo(video0.urn);
    const done = await h.stack.waitForPost(org, slow.body.post.id, undefined, 30_000);
    assert.equal(published(done).content && (published(done).content as any).media.id, video0.urn);
    assert.equal(li.calls().filter((c) => c.path === '/rest/videos' && c.query.action === 'initializeUpload' && c.status === 200).length >= 1, true);
    assert.equal(video0.parts.reduce((n, p) => n + p.puts, 0), video0.parts.length, 'no range was sent twice');
  });

  it('a video LinkedIn fails to process fails the destination with LinkedIn\'s reason, and nothing is posted', async () => {
    const video = await makeVideo({ seconds: 1, size: '160x120', rate: 10 });
    const media = await h.upload(org, 'bad.mp4', video, 'video/mp4');
    li.failNextVideo('Video processing failed: corrupt stream');
    const before = li.posts().length;
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [member.id], containers: [{ content: 'Bad clip', media: [{ url: media.url, filename: 'bad.mp4' }] }] } });
    const post = await h.stack.waitForPost(org, created.body.post.id, undefined, 30_000);
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /linkedin: LinkedIn could not process urn:li:video:\S+ \(Video processing failed: corrupt stream\)/);
    assert.equal(li.posts().length, before);
  });

  it("LinkedIn refusing a duplicate: failed with LinkedIn's reason naming the earlier post, which keeps its one owner", async () => {
    const first = published(await publish({ accounts: [member.id], content: 'Said once, posted once' }));
    const again = await publish({ accounts: [member.id], content: 'Said once, posted once' });
    assert.equal(again.socialAccounts[0].status, 'failed');
    assert.equal(again.socialAccounts[0].platformPostId, null);
    assert.equal(again.socialAccounts[0].error, `linkedin: LinkedIn refused it as a duplicate of an earlier post: https://www.linkedin.com/feed/update/${first.urn}/`);
    assert.equal(li.posts().filter((p) => p.commentarySent === 'Said once, posted once').length, 1);
  });

  it('an image post with the text of an earlier text post: refused as a duplicate, never published with the earlier post', async () => {
    const first = published(await publish({ accounts: [company.id], content: 'Same words, new picture' }));
    const again = await publish({ accounts: [company.id], containers: [{ content: 'Same words, new picture', media: [{ url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' }] }] });
    assert.equal(again.socialAccounts[0].status, 'failed');
    assert.equal(again.socialAccounts[0].error, `linkedin: LinkedIn refused it as a duplicate of an earlier post: https://www.linkedin.com/feed/update/${first.urn}/`);
  });

  it('its own post, whose answer was lost and which the search did not show yet, is adopted: published once, with its URN', async () => {
    li.failNext({ status: 504, method: 'POST', path: '/rest/posts', afterHandling: true });
    li.failNext({ status: 200, method: 'GET', path: '/rest/posts', body: { paging: { start: 0, count: 50, links: [] }, elements: [] } });
    const post = await publish({ accounts: [company.id], content: 'Lost on the way back' });
    const made = li.posts().filter((p) => p.commentarySent === 'Lost on the way back');
    assert.equal(made.length, 1);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(post.socialAccounts[0].platformPostId, made[0]!.urn);
  });

  it('a spent daily quota is retried at midnight UTC, with LinkedIn\'s message as the reason', async () => {
    li.setDailyQuota('POST /rest/posts', { member: 0 });
    try {
      const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [company.id], content: 'Over quota' } });
      const target = await until(async () => {
        const { rows } = await h.server.db.query(
          `SELECT t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`,
          [decodeId(created.body.post.id)],
        );
        return rows[0];
      });
      const midnight = new Date();
      midnight.setUTCHours(24, 0, 0, 0);
      assert.equal(target.status, 'pending');
      assert.ok(Math.abs(new Date(target.due_at).getTime() - midnight.getTime()) < 5_000, `due at ${target.due_at}, midnight ${midnight.toISOString()}`);
      assert.match(target.error, /linkedin: daily limit reached \(Resource level throttle limit for calls to this resource is reached\.\)/);
    } finally {
      li.setDailyQuota('POST /rest/posts', { member: 100_000 });
    }
  });

  it('a member\'s post refused by the quota is sent again when it frees, without asking LinkedIn what it cannot tell', async () => {
    li.setDailyQuota('POST /rest/posts', { member: 0 });
    let targetId: number;
    try {
      const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [member.id], content: 'Refused, then sent' } });
      targetId = await until(async () => {
        const { rows } = await h.server.db.query(
          `SELECT t.id FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(created.body.post.id)],
        );
        return rows[0]?.id as number | undefined;
      });
      const parts = await h.server.db.query('SELECT position, status FROM target_parts WHERE target_id = $1', [targetId]);
      assert.deepEqual(parts.rows, [], 'the refused container is not left reserved');
    } finally {
      li.setDailyQuota('POST /rest/posts', { member: 100_000 });
    }
    // Midnight UTC, now: the worker takes it again.
    await h.server.db.query('UPDATE targets SET due_at = now() WHERE id = $1', [targetId]);
    await notifyDue(h.server.db);
    const postId = (await h.server.db.query('SELECT post_id FROM targets WHERE id = $1', [targetId])).rows[0].post_id;
    const post = await h.stack.waitForPost(org, encodeId(Number(postId)), undefined, 20_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(li.posts().filter((p) => p.commentarySent === 'Refused, then sent').length, 1);
    assert.equal(li.calls().filter((c) => c.method === 'GET' && c.path === '/rest/posts' && c.query.author === member.urn).length, 0, 'LinkedIn was never asked for the member\'s posts');
  });

  it('a revoked token without a refresh token fails the destination and disconnects the account, once', async () => {
    const bob = li.addUser({ name: 'Bob Revoked' });
    const token = li.oauth.issue(bob.sub, APP.clientId, LINKEDIN_SCOPES, false).accessToken;
    const account = await h.server.addAccount(org, 'linkedin', 'bob', { networkUniqueId: `urn:li:person:${bob.sub}`, accessToken: token });
    li.revokeUser(bob.sub);
    const post = await publish({ accounts: [account.id], content: 'Never posted' });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^linkedin: the access token was refused \(The token used in the request has been revoked by the user \(REVOKED_ACCESS_TOKEN\)\); reconnect the account/);
    assert.equal(li.posts().filter((p) => p.author === `urn:li:person:${bob.sub}`).length, 0);
    const listed = await h.server.request('GET', `/v1/social-accounts/${account.id}`, { key: org.key });
    assert.equal(listed.body.data.isActive, 0);
    const { rows } = await h.server.db.query(`SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'account.token_expired'`, [org.orgId]);
    assert.equal(rows[0].n, 1);
  });

  it('what LinkedIn cannot publish is refused at creation, naming the account, before any call: media in a later container', async () => {
    const calls = li.calls().length;
    const res = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [member.id], containers: [{ content: 'root' }, { content: 'reply', media: [{ url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' }] }] } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.details[0].field, 'socialAccounts[0]');
    assert.match(res.body.details[0].message, /^linkedin: container 2 has media, but LinkedIn publishes later containers as comments/);
    assert.equal(li.calls().length, calls);
  });
});
