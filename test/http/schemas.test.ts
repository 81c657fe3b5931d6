// Route schemas compile on a route's first request (src/http/lazy-schemas.ts). A schema that cannot
// compile would therefore fail that request instead of the start: every one is compiled here. And the
// lazily compiled validators behave as Fastify's eager ones: coercion, defaults, the 400 naming the field.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import { compileAllSchemas, lazySchemaCompilers } from '../../src/http/lazy-schemas.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('every schema of every route compiles', () => {
  // Validators (body, querystring, params) and serializers (each response status), HEAD routes included.
  const compiled = compileAllSchemas(server.app);
  assert.ok(compiled > 100, `${compiled} schemas compiled`);
  assert.equal(compileAllSchemas(server.app), 0, 'each compiles once');
});

test('a lazily compiled validator coerces, applies defaults and refuses like the eager one', async () => {
  const fresh = await startTestServer();
  try {
    const freshOrg = await fresh.createOrg();
    // Coerced from the query string (offset "0" -> 0, limit default 50) on the route's first request.
    const ok = await fresh.request('GET', '/v1/posts?offset=0', { key: freshOrg.key });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.pagination.limit, 50);
    assert.equal(ok.body.pagination.offset, 0);
    const refused = await fresh.request('GET', '/v1/social-accounts?limit=1000', { key: freshOrg.key });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.body), /limit/);
  } finally {
    await fresh.close();
  }
});

test('a header schema naming a header in mixed case is refused when the route is registered', async () => {
  const compilers = lazySchemaCompilers();
  const app = Fastify({ schemaController: { compilersFactory: compilers.compilersFactory } });
  app.get('/x', { schema: { headers: { type: 'object', properties: { 'X-Thing': { type: 'string' } } } } }, async () => ({}));
  await assert.rejects(async () => { await app.ready(); }, /name the header "X-Thing" in lower case/);
});
