// The hosted client @outstand-so/ui, its base URL pointed at a started Crier: its hooks and
// components rendered in a browser (happy-dom, React 19) whose fetch enforces CORS from the app's
// origin. Every HTTP call the package makes (its README and dist/index.js) is made here.
import { browser } from './dom.ts';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startLinkedInEmulator, startThreadsEmulator, type LinkedInEmulator, type ThreadsEmulator } from '../../../emulators/index.ts';
import { APP_REDIRECT_URI, callbackUrl, registerApp } from '../../helpers/connect.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../../helpers/harness.ts';
import { browserFetch, type BrowserCall } from './browser.ts';
import { fireEvent, screen } from '@testing-library/react';
import { createElement } from 'react';
import { act, renderComponent, renderFresh, until, waitFor } from './render.ts';

const ui = await import('@outstand-so/ui');

let li: LinkedInEmulator;
/** A network whose login grants one account: connected at once, its redirect carrying account_id and session. */
let threads: ThreadsEmulator;
let server: TestServer;
let org: TestOrg;
let x: TestAccount;
let bsky: TestAccount;
let baseUrl: string;
const calls: BrowserCall[] = [];
const nodeFetch = globalThis.fetch;
const APP = { clientId: 'ui-linkedin', clientSecret: 'ui-linkedin-secret' };
const THREADS_APP = { clientId: 'ui-threads', clientSecret: 'ui-threads-secret' };
/** A 1x1 PNG: the media confirm judges the bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

before(async () => {
  [li, threads] = await Promise.all([startLinkedInEmulator(), startThreadsEmulator()]);
  server = await startTestServer({ CRIER_LINKEDIN_BASE_URL: li.url, CRIER_THREADS_BASE_URL: threads.url });
  li.addApp({ ...APP, redirectUris: [callbackUrl(server, 'linkedin')] });
  threads.addApp({ ...THREADS_APP, redirectUris: [callbackUrl(server, 'threads')] });
  org = await server.createOrg();
  await registerApp(server, org, 'linkedin', APP);
  await registerApp(server, org, 'threads', THREADS_APP);
  x = await server.addAccount(org, 'x', 'ui_x');
  bsky = await server.addAccount(org, 'bluesky', 'ui.bsky.social');
  baseUrl = `${server.config.publicBaseUrl}/v1`;
  globalThis.fetch = browserFetch(server.url, server.config.publicBaseUrl, calls);
});
after(async () => {
  globalThis.fetch = nodeFetch;
  await server.close();
  await Promise.all([li.close(), threads.close()]);
});
beforeEach(() => {
  calls.length = 0;
});


describe('accounts', () => {
  test('useAccounts lists the connected accounts; disconnectAccount (DELETE, JSON content type, no body) removes one', async () => {
    const { result, unmount } = renderFresh(() => ui.useAccounts({ apiKey: org.key, baseUrl }));
    try {
      const listed = await until(result, (r) => r.accounts.length > 0);
      assert.deepEqual(listed.accounts.map((a: any) => a.username).sort(), ['ui.bsky.social', 'ui_x']);
      assert.equal(listed.total, 2);
      const gone = await act(() => result.current.disconnectAccount(bsky.id));
      assert.equal(gone.success, true, JSON.stringify(gone));
      assert.deepEqual(calls.find((c) => c.method === 'DELETE'), { method: 'DELETE', url: `/v1/social-accounts/${bsky.id}`, status: 200 });
      await until(result, (r) => r.accounts.length === 1);
    } finally {
      unmount();
    }
  });
});

test('<AccountsList> shows each connected account', async () => {
  const view = renderComponent(createElement(ui.AccountsList, { apiKey: org.key, baseUrl }));
  try {
    await screen.findAllByText(/ui_x/, {}, { timeout: 5000 });
    assert.deepEqual(calls.map((c) => `${c.method} ${c.url} ${c.status}`), ['GET /v1/social-accounts?limit=10&offset=0 200']);
  } finally {
    view.unmount();
  }
});

describe('posts', () => {
  test('createPost (POST /posts/) answers the post under data.post; the list counts it; deletePost cancels it', async () => {
    const { result, unmount } = renderFresh(() => ui.usePosts({ apiKey: org.key, baseUrl }));
    try {
      await until(result, (r) => !r.isLoading);
      const created = await act(() => result.current.createPost({ accounts: [x.id], content: 'From the hosted client', scheduledAt: new Date(Date.now() + 3600_000).toISOString() }));
      assert.equal(created.success, true, JSON.stringify(created));
      assert.deepEqual(calls.find((c) => c.method === 'POST'), { method: 'POST', url: '/v1/posts/', status: 200 });
      const post = created.data.post;
      assert.equal(post.containers[0].content, 'From the hosted client');
      assert.deepEqual(created.post, post, 'the spec\'s top-level post stays');
      const listed = await until(result, (r) => r.posts.length === 1);
      assert.equal(listed.total, 1, 'the total is read from the top-level count');
      assert.equal(listed.posts[0].id, post.id);
      const cancelled = await act(() => result.current.deletePost(post.id));
      assert.equal(cancelled.success, true, JSON.stringify(cancelled));
      assert.equal(cancelled.outcome, 'cancelled');
    } finally {
      unmount();
    }
  });

  test('usePostMetrics and PostMetrics read Crier\'s analytics; a figure nobody gave is drawn empty, never as 0', async () => {
    const created = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: 'Measured?', isDraft: true } });
    // Hooks of earlier tests may still revalidate in the background: look for this hook's call.
    const analyticsUrl = `/v1/posts/${created.body.post.id}/analytics`;
    const analyticsCall = () => calls.find((c) => c.url === analyticsUrl);
    const { result, unmount } = renderFresh(() => ui.usePostMetrics({ apiKey: org.key, baseUrl, postId: created.body.post.id }));
    try {
      const loaded = await until(result, (r) => !r.isLoading && r.analytics !== null && analyticsCall() !== undefined);
      assert.deepEqual(analyticsCall(), { method: 'GET', url: analyticsUrl, status: 200 });
      // A draft went nowhere: no destination to measure, and every total unknown (null).
      assert.equal(loaded.analytics!.post.id, created.body.post.id);
      assert.deepEqual(loaded.analytics!.metrics_by_account, []);
      assert.equal(loaded.analytics!.aggregated_metrics.total_likes, null);
      const drawn = renderComponent(createElement(ui.PostMetrics, { apiKey: org.key, baseUrl, postId: created.body.post.id }));
      const label = await screen.findByText('Total Likes', {}, { timeout: 5000 });
      assert.equal(label.nextElementSibling?.textContent, '', 'an unknown figure is drawn empty (the client defaults only a missing one to 0)');
      drawn.unmount();
      const unknown = await server.request('GET', '/v1/posts/zzzzzzzzzz/analytics', { key: org.key });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'not_found');
    } finally {
      unmount();
    }
  });
});

describe('media', () => {
  test('uploadFile: upload URL, the PUT from the browser, confirm; useMediaList lists it; deleteMedia removes it', async () => {
    const upload = renderFresh(() => ui.useMediaUpload({ apiKey: org.key, baseUrl }));
    let id: number;
    try {
      const file = new File([PNG], 'dot.png', { type: 'image/png' });
      const media = await act(() => upload.result.current.uploadFile(file));
      assert.ok(media, `the upload failed: ${JSON.stringify(calls)}`);
      assert.equal(media.status, 'ready');
      assert.equal(media.filename, 'dot.png');
      assert.equal(media.size, PNG.length);
      assert.deepEqual(calls.map((c) => `${c.method} ${c.url.split('?')[0]} ${c.status}`), [
        'POST /v1/media/upload 200', `PUT /media-uploads/${media.id} 200`, `POST /v1/media/${media.id}/confirm 200`,
      ]);
      id = media.id;
    } finally {
      upload.unmount();
    }
    const list = renderFresh(() => ui.useMediaList({ apiKey: org.key, baseUrl }));
    try {
      const listed = await until(list.result, (r) => r.media.length > 0);
      assert.deepEqual(listed.media.map((m: any) => m.id), [id]);
      assert.equal(listed.pagination?.count, 1, 'MediaList reads the total under pagination.count');
      await act(() => list.result.current.deleteMedia(String(id)));
      assert.deepEqual(calls.filter((c) => c.method === 'DELETE').at(-1), { method: 'DELETE', url: `/v1/media/${id}`, status: 200 });
    } finally {
      list.unmount();
    }
  });
});

/** The browser's trip from the auth URL through the network's consent and Crier's callback: where it lands. */
async function landAfterConsent(authUrl: string): Promise<URL> {
  const consent = await nodeFetch(authUrl, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location')!);
  const back = await nodeFetch(server.url + callback.pathname + callback.search, { redirect: 'manual' });
  assert.equal(back.status, 302, await back.text());
  return new URL(back.headers.get('location')!);
}

describe('connecting an account', () => {
  test('<OAuthCallback> on the page Crier redirects to: it reads ?session=, lists what was granted, connects the pick', async () => {
    const member = li.addUser({});
    li.signIn(member.sub);
    const company = li.addOrganization({ localizedName: 'UI Test Company', vanityName: `ui-co-${member.sub.toLowerCase()}`, admins: [member.sub] });
    const started = await server.request('POST', '/v1/social-networks/linkedin/auth-url', { key: org.key, body: { redirect_uri: APP_REDIRECT_URI } });
    const landed = await landAfterConsent(started.body.data.auth_url);
    browser.happyDOM.setURL(landed.href);
    let connected: any[] | undefined;
    const view = renderComponent(createElement(ui.OAuthCallback, { apiKey: org.key, baseUrl, onSuccess: (accounts: any[]) => { connected = accounts; } }));
    try {
      fireEvent.click(await screen.findByText('UI Test Company', {}, { timeout: 5000 }));
      fireEvent.click(await screen.findByText('Connect 1 Account'));
      await waitFor(() => assert.ok(connected, 'onSuccess was not called'), { timeout: 5000 });
      assert.deepEqual(connected!.map((a) => [a.network, a.nickname]), [['linkedin', 'UI Test Company']]);
      const finalize = calls.filter((c) => c.method === 'POST').at(-1)!;
      assert.match(finalize.url, /^\/v1\/social-accounts\/pending\/[^/]+\/finalize$/);
      assert.equal(finalize.status, 200);
    } finally {
      view.unmount();
    }
  });

  test('<OAuthCallback> after a login that grants one account (Threads): connected at once, its ?session= lists it and connects it again as it is', async () => {
    const user = threads.addUser({ username: 'ui_threads_user' });
    threads.signIn(user.id);
    const started = await server.request('POST', '/v1/social-networks/threads/auth-url', { key: org.key, body: { redirect_uri: APP_REDIRECT_URI } });
    const landed = await landAfterConsent(started.body.data.auth_url);
    const accountId = landed.searchParams.get('account_id');
    assert.ok(accountId && landed.searchParams.get('session'), `account_id and session on ${landed}`);
    const stored = async () => (await server.db.query('SELECT xmin::text AS row_version, access_token_enc FROM social_accounts WHERE username = $1', ['ui_threads_user'])).rows;
    const before = await stored();
    const fromHere = calls.length;
    browser.happyDOM.setURL(landed.href);
    let connected: any[] | undefined;
    const view = renderComponent(createElement(ui.OAuthCallback, { apiKey: org.key, baseUrl, onSuccess: (accounts: any[]) => { connected = accounts; } }));
    try {
      fireEvent.click(await screen.findByText(/ui_threads_user/, {}, { timeout: 5000 }));
      fireEvent.click(await screen.findByText('Connect 1 Account'));
      await waitFor(() => assert.ok(connected, 'onSuccess was not called'), { timeout: 5000 });
      assert.deepEqual(connected!.map((a) => [a.id, a.network, a.username]), [[accountId, 'threads', 'ui_threads_user']]);
      assert.deepEqual(calls.slice(fromHere).map((c) => `${c.method} ${c.url.replace(/pending\/[^/]+/, 'pending/<session>')} ${c.status}`), [
        'GET /v1/social-accounts/pending/<session> 200',
        'POST /v1/social-accounts/pending/<session>/finalize 200',
      ]);
      assert.deepEqual(await stored(), before, 'finalizing the session wrote nothing over the account connected at the callback');
      const listed = (await server.request('GET', '/v1/social-accounts?network=threads', { key: org.key })).body.data;
      assert.deepEqual(listed.map((a: any) => a.id), [accountId], 'one account, as the callback connected it');
    } finally {
      view.unmount();
    }
  });

  test('getAuthUrl, the redirect back with ?session=, getPendingConnection, finalizeConnection (data.connectedAccounts)', async () => {
    const member = li.addUser({});
    li.signIn(member.sub);
    const { result, unmount } = renderFresh(() => ui.useOAuthFlow({ apiKey: org.key, baseUrl }));
    try {
      const started = await act(() => result.current.getAuthUrl('linkedin', APP_REDIRECT_URI));
      assert.equal(started.success, true, JSON.stringify(started));
      const redirected = await landAfterConsent(started.data.auth_url);
      assert.equal(`${redirected.origin}${redirected.pathname}`, APP_REDIRECT_URI);
      const session = redirected.searchParams.get('session');
      assert.ok(session, `no ?session= on ${redirected}`);
      const pending = await act(() => result.current.getPendingConnection(session));
      assert.equal(pending.success, true, JSON.stringify(pending));
      const pages = pending.data.availablePages;
      assert.deepEqual(pages.map((p: any) => p.id), [`urn:li:person:${member.sub}`]);
      const done = await act(() => result.current.finalizeConnection(session, [pages[0].id]));
      assert.equal(done.success, true, JSON.stringify(done));
      assert.equal(done.data.connectedAccounts.length, 1);
      assert.equal(done.data.connectedAccounts[0].network, 'linkedin');
    } finally {
      unmount();
    }
  });
});
