// Every list endpoint takes one pagination (limit 1-100, offset 0 to 2^53-1) and every `:id` route one
// id parser: an offset or limit beyond what JavaScript and PostgreSQL hold is a 400 naming it, and an
// id Crier could never have issued (beyond the id range, a float, a negative) is as missing as an
// unknown one, a 404. Never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let webhookId: number;

before(async () => {
  // The loopback switch lets a webhook be registered to a literal 127.0.0.1 without any DNS.
  server = await startTestServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'true' });
  org = await server.createOrg();
  const webhook = await server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'hook', url: 'https://127.0.0.1:9/hook', events: ['post.published'] } });
  assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
  webhookId = webhook.body.data.id;
});
after(() => server.close());

const LIST_ENDPOINTS = ['/v1/posts', '/v1/social-accounts', '/v1/media', '/v1/webhooks', '/v1/api-keys', '/v1/usage'];
const listEndpoints = () => [...LIST_ENDPOINTS, `/v1/webhooks/${webhookId}/deliveries`];
const withQuery = (path: string, query: string) => `${path}?${query}`;

describe('pagination', () => {
  test('an offset or limit beyond what the database holds is a 400 naming it, on every list endpoint', async () => {
    const cases = [
      ['offset=1e20', 'offset'], ['offset=99999999999999999999', 'offset'], ['offset=9007199254740992', 'offset'],
      ['limit=1e20', 'limit'], ['limit=99999999999999999999', 'limit'], ['offset=1.5', 'offset'],
    ] as const;
    for (const path of listEndpoints()) {
      for (const [query, field] of cases) {
        const res = await server.request('GET', withQuery(path, query), { key: org.key });
        assert.equal(res.status, 400, `${path}?${query}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'validation_error', `${path}?${query}`);
        assert.deepEqual(res.body.details.map((d: { field: string }) => d.field), [field], `${path}?${query}`);
      }
    }
  });

  test('the largest offset is an empty page, not an error', async () => {
    for (const path of listEndpoints()) {
      const res = await server.request('GET', withQuery(path, 'offset=9007199254740991&limit=100'), { key: org.key });
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      const page = res.body.pagination ?? res.body;
      assert.deepEqual([page.offset, page.limit], [9007199254740991, 100], path);
      const items = res.body.posts ?? res.body.data.items ?? res.body.data;
      assert.deepEqual(items, [], path);
    }
  });

  test('the OpenAPI document gives every list endpoint the same optional limit and offset', async () => {
    const doc = (await server.request('GET', '/openapi.json')).body;
    for (const path of [...LIST_ENDPOINTS, '/v1/webhooks/{id}/deliveries']) {
      const parameters = doc.paths[path].get.parameters as { name: string; required?: boolean; schema: Record<string, unknown> }[];
      const limit = parameters.find((p) => p.name === 'limit');
      const offset = parameters.find((p) => p.name === 'offset');
      assert.deepEqual([limit?.required, limit?.schema.minimum, limit?.schema.maximum, limit?.schema.default], [false, 1, 100, 50], path);
      assert.deepEqual([offset?.required, offset?.schema.minimum, offset?.schema.maximum, offset?.schema.default], [false, 0, Number.MAX_SAFE_INTEGER, 0], path);
    }
  });
});

describe(':id parameters', () => {
  const ROUTES: [method: string, path: (id: string) => string][] = [
    ['GET', (id) => `/v1/posts/${id}`],
    ['PATCH', (id) => `/v1/posts/${id}`],
    ['DELETE', (id) => `/v1/posts/${id}`],
    ['GET', (id) => `/v1/social-accounts/${id}`],
    ['DELETE', (id) => `/v1/social-accounts/${id}`],
    ['GET', (id) => `/v1/social-networks/${id}`],
    ['DELETE', (id) => `/v1/social-networks/${id}`],
    ['GET', (id) => `/v1/media/${id}`],
    ['DELETE', (id) => `/v1/media/${id}`],
    ['POST', (id) => `/v1/media/${id}/confirm`],
    ['GET', (id) => `/v1/webhooks/${id}`],
    ['PATCH', (id) => `/v1/webhooks/${id}`],
    ['DELETE', (id) => `/v1/webhooks/${id}`],
    ['POST', (id) => `/v1/webhooks/${id}/test`],
    ['GET', (id) => `/v1/webhooks/${id}/deliveries`],
    ['POST', (id) => `/v1/webhooks/deliveries/${id}/redeliver`],
    ['DELETE', (id) => `/v1/api-keys/${id}`],
  ];
  const NOT_IDS = ['99999999999999999999', '9007199254740992', '1e3', '1.5', '-1', '0', '0x10'];

  test('an id beyond the id range, or not an id at all, is a 404 on every :id route', async () => {
    for (const [method, path] of ROUTES) {
      for (const id of NOT_IDS) {
        const body = method === 'PATCH' ? (path(id).startsWith('/v1/posts') ? { isDraft: true } : { name: 'renamed' }) : method === 'POST' ? {} : undefined;
        const res = await server.request(method, path(id), { key: org.key, body });
        assert.equal(res.status, 404, `${method} ${path(id)}: ${JSON.stringify(res.body)}`);
        assert.deepEqual([res.body.success, res.body.code], [false, 'not_found'], `${method} ${path(id)}`);
      }
    }
  });

  test('the signed upload PUT answers 404 for an id beyond the range too', async () => {
    for (const id of NOT_IDS) {
      const res = await fetch(`${server.url}/media-uploads/${id}?expires=1&signature=x`, { method: 'PUT', body: 'bytes' });
      assert.equal(res.status, 404, `${id}: ${await res.text()}`);
    }
  });

  test('numeric ids Crier issues still work: a webhook by its number', async () => {
    const res = await server.request('GET', `/v1/webhooks/${webhookId}`, { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, webhookId);
  });
});
