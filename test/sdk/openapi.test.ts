// The OpenAPI document of a started Crier is valid OpenAPI 3.1, names and summarizes every
// operation, shows the create-post examples, and the SDK's committed types match it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { documentInProcess, TYPES_FILE, typesFor } from '../../sdk/generate.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let document: any;
before(async () => {
  server = await startTestServer();
  document = (await server.request('GET', '/openapi.json')).body;
});
after(() => server.close());

const operationsOf = (doc: any) =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).filter(([method]) => ['get', 'put', 'post', 'patch', 'delete'].includes(method)).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));

test('/openapi.json is a valid OpenAPI 3.1 document', async () => {
  assert.equal(document.openapi, '3.1.0');
  const result = await new Validator().validate(structuredClone(document));
  assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  assert.equal(result.valid, true);
});

test('every operation has a unique operationId and a summary', () => {
  const operations = operationsOf(document);
  assert.ok(operations.length >= 30, `only ${operations.length} operations`);
  for (const { where, op } of operations) {
    assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${where} has no operationId`);
    assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${where} has no summary`);
  }
  const ids = operations.map(({ op }) => op.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operationIds repeat');
  const byWhere = Object.fromEntries(operations.map(({ where, op }) => [where, op.operationId]));
  assert.deepEqual(
    [byWhere['GET /v1/posts'], byWhere['POST /v1/posts'], byWhere['GET /v1/posts/{id}'], byWhere['PATCH /v1/posts/{id}'], byWhere['DELETE /v1/posts/{id}'], byWhere['POST /v1/media/{id}/confirm']],
    ['listPosts', 'createPost', 'getPost', 'updatePost', 'deletePost', 'confirmMedia'],
  );
});

test('POST /v1/posts shows a thread, a scheduled cross-post and an Instagram carousel', () => {
  const examples = document.paths['/v1/posts'].post.requestBody.content['application/json'].examples;
  assert.deepEqual(Object.keys(examples).sort(), ['instagramCarousel', 'scheduledCrossPost', 'thread']);
  assert.ok(examples.thread.value.containers.length >= 2);
  assert.ok(examples.scheduledCrossPost.value.scheduledAt && examples.scheduledCrossPost.value.accounts.length >= 2);
  assert.ok(examples.instagramCarousel.value.containers[0].media.length >= 2);
});

test('a second read of the document still has the examples (nothing consumed on the first)', async () => {
  const again = (await server.request('GET', '/openapi.json')).body;
  assert.deepEqual(again.paths['/v1/posts'].post.requestBody, document.paths['/v1/posts'].post.requestBody);
});

test('sdk/src/openapi.ts is what sdk/generate.ts makes of the document today (run `node sdk/generate.ts`)', async () => {
  const committed = await readFile(TYPES_FILE, 'utf8');
  assert.equal(await typesFor(await documentInProcess()), committed, 'sdk/src/openapi.ts is stale: run `node sdk/generate.ts` and commit it');
  // The started server's document gives the same types: in-process generation reflects what is served.
  assert.equal(await typesFor(structuredClone(document)), committed);
});
