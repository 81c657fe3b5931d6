// The MCP OAuth consent page in a real headless Chromium, as a person meets it: an MCP client opens
// /oauth/authorize in the browser; the dashboard asks for an API key first, then shows the client's
// name, the organization and where the browser will return (scheme and host). Allow sends the
// browser to the client's loopback redirect URI with a code that the token endpoint accepts; Deny
// sends it there with error=access_denied. The loopback "client" is a small HTTP server of the test.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { DESKTOP, chromiumPath, collectPageErrors, launchChromium, screenshots } from './browser.ts';
import { newPkce, type Pkce } from '../oauth/flow.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('the MCP consent page in a real browser', { skip, timeout: 120_000 }, () => {
  let server: TestServer;
  let org: TestOrg;
  let orgName: string;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];
  /** The MCP client's loopback listener, and the callbacks it received. */
  let client: Server;
  let redirectUri: string;
  const received: URL[] = [];

  before(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium(executable!)]);
    org = await server.createOrg();
    orgName = (await server.db.query('SELECT name FROM orgs WHERE id = $1', [org.orgId])).rows[0].name;
    client = createServer((request, response) => {
      const url = new URL(request.url!, redirectUri);
      if (url.pathname === '/callback') received.push(url); // not the browser's /favicon.ico
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>You may close this window.</p>');
    });
    await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(client.address() as { port: number }).port}/callback`;
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    pageErrors = collectPageErrors(page);
  });
  after(async () => {
    await browser?.close();
    client?.close();
    await server?.close();
  });

  const registerClient = async (name: string, uris = [redirectUri]): Promise<string> => {
    const answer = await server.request('POST', '/oauth/register', { body: { client_name: name, redirect_uris: uris } });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.client_id;
  };
  const authorizeUrl = (clientId: string, pkce: Pkce, state: string, uri = redirectUri) =>
    `${server.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: uri, code_challenge: pkce.challenge, code_challenge_method: 'S256', state, resource: `${server.config.publicBaseUrl}/mcp` })}`;

  test('signed out: the authorization URL asks for a key, then shows who asks, for which organization, and where the browser returns; Allow goes there with a code', async () => {
    const clientId = await registerClient('Desk Agent <b>bold</b>');
    const pkce = newPkce();
    await page.goto(authorizeUrl(clientId, pkce, 'state-allow'));
    await page.getByLabel('API key').fill(org.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow an MCP client?' }).waitFor();
    assert.equal(await page.getByTestId('client-name').innerText(), 'Desk Agent <b>bold</b>', 'the name is shown as text, never as markup');
    assert.equal(await page.getByTestId('organization').innerText(), orgName);
    assert.equal(await page.getByTestId('return-to').innerText(), new URL(redirectUri).origin);
    await screenshots(page, 'mcp-consent');

    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const back = new URL(page.url());
    assert.match(back.searchParams.get('code')!, /^crier-ac-/);
    assert.equal(back.searchParams.get('state'), 'state-allow');
    assert.equal(back.searchParams.get('iss'), server.config.publicBaseUrl);
    assert.equal(received.at(-1)?.searchParams.get('code'), back.searchParams.get('code'), 'the client\'s listener received the code');
    // The code is a real one: the client exchanges it.
    const exchanged = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: back.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: pkce.verifier }),
    });
    assert.equal(exchanged.status, 200);
  });

  test('signed in: Deny goes back to the client with error=access_denied and its state, and no grant is made', async () => {
    const clientId = await registerClient('Denied Agent');
    await page.goto(authorizeUrl(clientId, newPkce(), 'state-deny'));
    await page.getByTestId('client-name').waitFor();
    assert.equal(await page.getByTestId('client-name').innerText(), 'Denied Agent');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'state-deny');
    assert.equal(back.searchParams.get('code'), null);
    const keys = (await server.request('GET', '/v1/api-keys?limit=100', { key: org.key })).body.data;
    assert.equal(keys.some((k: any) => k.name === 'MCP: Denied Agent'), false);
  });

  test('a desktop client\'s own scheme: the page names the scheme and host the answer goes to', async () => {
    const appUri = 'cursor://anysphere.cursor-retrieval/oauth/callback';
    const clientId = await registerClient('Editor', [appUri]);
    await page.goto(authorizeUrl(clientId, newPkce(), 'state-app', appUri));
    await page.getByTestId('return-to').waitFor();
    assert.equal(await page.getByTestId('return-to').innerText(), 'cursor://anysphere.cursor-retrieval');
    assert.match(await page.locator('.consent').innerText(), /application on this computer/);
    assert.deepEqual(pageErrors, []);
  });
});
