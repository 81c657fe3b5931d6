// Connecting a Mastodon account through OAuth on any instance: the connect names the instance
// (`instance_url`), Crier registers its own app there on first use (POST /api/v1/apps) and keeps it for
// every org, the user authorizes (PKCE), the callback exchanges the code on that instance and stores the
// account as a token connect does (the same account, updated in place), and it publishes. Bad or
// refused addresses are 400 with the field named; an instance that forgot the app gets a new one.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { loadAccount } from '../../../src/accounts/session.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestOrg } from '../../helpers/harness.ts';
import { selfSignedCertificate } from '../../helpers/https-server.ts';
import { startMastodonStack, type Connected, type MastodonStack } from './setup.ts';

let s: MastodonStack;
before(async () => {
  s = await startMastodonStack();
});
after(() => s.close());

const authUrl = (org: TestOrg, body: Record<string, unknown>) => s.h.server.request('POST', '/v1/social-networks/mastodon/auth-url', { key: org.key, body });

/** The calls the emulator answered to a path, from its own record. */
async function callsTo(method: string, path: string): Promise<number> {
  const { calls } = await (await fetch(`${s.masto.url}/__emulator/calls`)).json() as { calls: { method: string; path: string }[] };
  return calls.filter((c) => c.method === method && c.path === path).length;
}

/** The browser's trip: auth-url, the instance's consent (as `accountId`), Crier's callback. `via` replaces the authorize page's origin. */
async function connect(org: TestOrg, accountId: string, instanceUrl: string = s.masto.url, via?: string) {
  s.masto.signIn(accountId);
  const res = await authUrl(org, { instance_url: instanceUrl });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const authorize = new URL(res.body.data.auth_url);
  const consent = await fetch(via ? `${via}${authorize.pathname}${authorize.search}` : authorize, { redirect: 'manual' });
  assert.equal(consent.status, 302, await consent.clone().text());
  const back = new URL(consent.headers.get('location')!);
  assert.equal(back.searchParams.get('error'), null, back.search);
  const callback = await s.h.server.request('GET', back.pathname + back.search);
  return { authorize, callback };
}

describe('Mastodon accounts connected through OAuth', () => {
  it('auth-url: instance_url missing, malformed or refused by the guard is a 400 naming it; the other networks refuse it', async () => {
    for (const [body, pattern] of [
      [{}, /is required/],
      [{ instance_url: 'not an address at all' }, /must be the instance's address/],
      [{ instance_url: 42 }, /must be the instance's address/],
      [{ instance_url: 'https://169.254.169.254' }, /only public https addresses are allowed/],
      [{ instance_url: 'http://10.0.0.1' }, /only public https addresses are allowed/],
    ] as const) {
      const res = await authUrl(s.org, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].field, 'instance_url', JSON.stringify(res.body));
      assert.match(res.body.details[0].message, pattern);
    }
    const elsewhere = await s.h.server.request('POST', '/v1/social-networks/x/auth-url', { key: s.org.key, body: { instance_url: s.masto.url } });
    assert.deepEqual([elsewhere.status, elsewhere.body.details?.[0]?.field], [400, 'instance_url']);
    assert.equal(await callsTo('POST', '/api/v1/apps'), 0, 'nothing was registered for a refused connect');
  });

  it('no app to register: POST /v1/social-networks for mastodon says how to connect instead', async () => {
    const res = await s.h.server.request('POST', '/v1/social-networks', { key: s.org.key, body: { network: 'mastodon', client_key: 'a', client_secret: 'b' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].field, 'network');
    assert.match(res.body.details[0].message, /registers its own on each instance.*auth-url \{instance_url\}/);
  });

  it('the first connect registers Crier\'s app on the instance, later ones (another org too) reuse it; the account publishes', async () => {
    const remote = s.masto.addAccount({ username: 'oauthed', scopes: [] });
    const first = await connect(s.org, remote.id, 'HTTP://' + new URL(s.masto.url).host + '/@oauthed');
    assert.equal(first.callback.status, 200, JSON.stringify(first.callback.body));
    const account = first.callback.body.data;
    const host = new URL(s.masto.url).host;
    assert.deepEqual([account.network, account.username, account.network_unique_id], ['mastodon', `oauthed@${host}`, `${host}:${remote.id}`]);
    assert.deepEqual([first.authorize.searchParams.get('scope'), first.authorize.searchParams.get('code_challenge_method')], ['read:accounts read:statuses write:statuses write:media', 'S256']);
    const [app] = s.masto.apps();
    assert.deepEqual([app!.name, app!.redirectUris, app!.scopes], ['Crier', [`${s.h.server.config.publicBaseUrl}/oauth/callback/mastodon`], ['read:accounts', 'read:statuses', 'write:statuses', 'write:media']]);
    assert.equal(first.authorize.searchParams.get('client_id'), app!.clientId);

    const other = await s.h.server.createOrg();
    const again = await connect(other, s.masto.addAccount({ username: 'second' }).id);
    assert.equal(again.callback.status, 200, JSON.stringify(again.callback.body));
    assert.equal(again.authorize.searchParams.get('client_id'), app!.clientId);
    assert.equal(await callsTo('POST', '/api/v1/apps'), 1);

    const post = await s.publish({ id: account.id, network: 'mastodon', username: account.username, remote } as Connected, { content: 'published through OAuth' });
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.deepEqual(s.masto.statusesOf(remote.id).map((status) => status.text), ['published through OAuth']);
  });

  it('two first connects racing on a new instance store one app, and both authorize through it', async () => {
    const front = await httpsFront();
    try {
      const urls = await Promise.all([authUrl(s.org, { instance_url: front.url }), authUrl(s.org, { instance_url: front.url })]);
      for (const res of urls) assert.equal(res.status, 200, JSON.stringify(res.body));
      const [a, b] = urls.map((res) => new URL(res.body.data.auth_url).searchParams.get('client_id'));
      assert.equal(a, b);
      const { rows } = await s.h.server.db.query(`SELECT count(*)::int AS n FROM network_instance_apps WHERE origin = $1`, [front.url]);
      assert.equal(rows[0].n, 1);
    } finally {
      await front.close();
    }
  });

  it('an account connected by token and then through OAuth is one account, updated in place', async () => {
    const byToken = await s.connect();
    const oauthed = await connect(s.org, byToken.remote.id);
    assert.equal(oauthed.callback.status, 200, JSON.stringify(oauthed.callback.body));
    assert.equal(oauthed.callback.body.data.id, byToken.id);
    const list = await s.h.server.request('GET', '/v1/social-accounts?network=mastodon&limit=100', { key: s.org.key });
    assert.equal(list.body.data.filter((a: { network_unique_id: string }) => a.network_unique_id === oauthed.callback.body.data.network_unique_id).length, 1);
    // What publishes now is the OAuth token, kept where the typed one was.
    const { credentials } = await loadAccount(s.h.server.db, s.h.server.box, decodeId(byToken.id)!);
    assert.ok(credentials.credential && credentials.credential !== byToken.remote.token);
    assert.equal(credentials.serviceUrl, s.masto.url);
    const post = await s.publish(byToken, { content: 'with the OAuth token' });
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
  });

  it('an instance that no longer knows Crier\'s app: the callback says so, the app is forgotten, the next connect registers a new one', async () => {
    const remote = s.masto.addAccount({ username: 'forgotten' });
    s.masto.signIn(remote.id);
    const res = await authUrl(s.org, { instance_url: s.masto.url });
    const authorize = new URL(res.body.data.auth_url);
    const consent = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    // An admin removes the app between the consent and the callback.
    const gone = authorize.searchParams.get('client_id')!;
    s.masto.removeApp(gone);
    const refused = await s.h.server.request('GET', back.pathname + back.search);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'app_credentials_rejected');
    assert.match(refused.body.error, /no longer accepts Crier's app/);
    const registered = await callsTo('POST', '/api/v1/apps');
    const retry = await connect(s.org, remote.id);
    assert.equal(retry.callback.status, 200, JSON.stringify(retry.callback.body));
    assert.notEqual(retry.authorize.searchParams.get('client_id'), gone);
    assert.equal(await callsTo('POST', '/api/v1/apps'), registered + 1);
  });

  it('a user\'s instance behind HTTPS: registration, code exchange and the account\'s reads all go through the guard', async () => {
    const front = await httpsFront();
    try {
      const remote = s.masto.addAccount({ username: 'guarded_oauth' });
      const { callback } = await connect(s.org, remote.id, front.url, s.masto.url);
      assert.equal(callback.status, 200, JSON.stringify(callback.body));
      const stored = await s.h.server.db.query(`SELECT service_url FROM social_accounts WHERE network = 'mastodon' AND network_unique_id LIKE $1`, [`%:${remote.id}`]);
      assert.equal(stored.rows[0].service_url, front.url);
      assert.deepEqual(front.seen.filter((line) => line !== 'GET /api/v2/instance'), ['POST /api/v1/apps', 'POST /oauth/token', 'GET /api/v1/accounts/verify_credentials']);
    } finally {
      await front.close();
    }
  });
});

/**
 * The emulator behind a local HTTPS front, at an origin other than the configured instance, so Crier
 * reaches it through the guard; its certificate trusted by this process as CRIER_EXTRA_CA_FILE would.
 */
async function httpsFront(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const { key, cert } = await selfSignedCertificate();
  const trusted = getCACertificates('default');
  setDefaultCACertificates([...trusted, cert]);
  const seen: string[] = [];
  const server: Server = createServer({ key, cert }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push(`${req.method} ${req.url!.split('?')[0]}`);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)).map(([n, v]) => [n, String(v)]));
    const answer = await fetch(`${s.masto.url}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      setDefaultCACertificates(trusted);
    },
  };
}
