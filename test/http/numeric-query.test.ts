// Every numeric query parameter of every route takes finite numbers only: `1e309`, `-1e309`,
// `Infinity` and `1e400` read as an infinite number that the schemas' integer type and bounds let
// through, and that PostgreSQL then refused (a 500 on every list route). Now a 400 naming the
// parameter. The routes are enumerated from the OpenAPI document, so a new one is covered as it lands.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
});
after(() => server.close());

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string };
}

const INFINITE = ['1e309', '-1e309', 'Infinity', '1e400'];

/** Every [method, path template, numeric query parameter, the query's required other parameters]. */
async function numericQueryParameters(): Promise<[string, string, string, string][]> {
  const doc = (await server.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  const found: [string, string, string, string][] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const numeric = (p: Parameter) => p.schema?.type === 'integer' || p.schema?.type === 'number';
      const required = query.filter((p) => p.required && !numeric(p)).map((p) => `${p.name}=${account.id}`).join('&');
      for (const p of query) {
        if (numeric(p)) found.push([method.toUpperCase(), path, p.name, required]);
      }
    }
  }
  return found;
}

test('an infinite number in any numeric query parameter is a 400 naming it, never a 500', async () => {
  const parameters = await numericQueryParameters();
  const lists = new Set(parameters.filter(([, , name]) => name === 'offset').map(([, path]) => path));
  assert.ok(lists.size >= 9, `list routes found: ${[...lists].join(', ')}`);
  for (const [method, template, name, required] of parameters) {
    const path = template.replace(/\{[^}]+\}/g, account.id);
    for (const value of INFINITE) {
      const url = `${path}?${required ? `${required}&` : ''}${name}=${value}`;
      const res = await server.request(method, url, { key: org.key });
      assert.equal(res.status, 400, `${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'validation_error', `${method} ${url}`);
      assert.deepEqual(res.body.details.map((d: { field: string }) => d.field), [name], `${method} ${url}: ${JSON.stringify(res.body.details)}`);
    }
  }
});

test('finite values of the same parameters still answer as before', async () => {
  for (const path of ['/v1/posts', '/v1/social-accounts', '/v1/media', '/v1/webhooks', '/v1/api-keys', '/v1/usage']) {
    const res = await server.request('GET', `${path}?limit=2&offset=1e2`, { key: org.key });
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    const page = res.body.pagination ?? res.body;
    assert.deepEqual([page.limit, page.offset], [2, 100], path);
  }
});
