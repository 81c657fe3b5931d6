// How the tools are made from an OpenAPI document: inputs are the operation's own parameters and
// body, arguments are split back into path, query and body, and a tool whose operation is missing
// (or lacks the dry run) is not offered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTools, type OpenApiParameter } from '../../src/mcp/tools.ts';

const body = { type: 'object', required: ['accounts'], properties: { accounts: { type: 'array', items: { type: 'string' } }, content: { type: 'string' } } };
const createPost = (parameters: OpenApiParameter[]) => ({ parameters, requestBody: { content: { 'application/json': { schema: body } } } });
const patch = {
  parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
  requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { scheduledAt: { type: 'string' } } } } } },
};

test('without a declared dry_run, validate_post is not offered (it would create the post)', () => {
  const names = buildTools({ paths: { '/v1/posts': { post: createPost([]) } } }).map((t) => t.name);
  assert.deepEqual(names, ['create_post']);
});

test('with it, validate_post calls the create with dry_run=true, and dry_run is no input of either tool', () => {
  const tools = buildTools({ paths: { '/v1/posts': { post: createPost([{ in: 'query', name: 'dry_run', schema: { type: 'boolean' } }]) } } });
  const validate = tools.find((t) => t.name === 'validate_post')!;
  assert.deepEqual(validate.request({ accounts: ['a'], content: 'hi' }), { method: 'POST', path: '/v1/posts', query: { dry_run: 'true' }, body: { accounts: ['a'], content: 'hi' } });
  assert.deepEqual(validate.inputSchema, { type: 'object', properties: body.properties, required: ['accounts'] });
  const create = tools.find((t) => t.name === 'create_post')!;
  assert.deepEqual(create.inputSchema.properties, body.properties);
  assert.deepEqual(create.request({ accounts: ['a'], dry_run: true }).query, {}, 'a create is never a dry run');
});

test('path parameters go into the path (encoded), query parameters into the query, the rest into the body', () => {
  const tools = buildTools({
    paths: {
      '/v1/posts/{id}': { patch },
      '/v1/posts': { get: { parameters: [{ in: 'query', name: 'limit', schema: { type: 'integer' } }] } },
    },
  });
  const reschedule = tools.find((t) => t.name === 'reschedule_post')!;
  assert.deepEqual(reschedule.request({ id: 'a/b', scheduledAt: '2026-12-01T10:00Z' }), { method: 'PATCH', path: '/v1/posts/a%2Fb', query: {}, body: { scheduledAt: '2026-12-01T10:00Z' } });
  assert.deepEqual(reschedule.inputSchema.required, ['id']);
  const list = tools.find((t) => t.name === 'list_posts')!;
  assert.deepEqual(list.request({ limit: 5 }), { method: 'GET', path: '/v1/posts', query: { limit: 5 }, body: undefined });
});

test('reads below an account: a listing per list; its metrics stay get_account_metrics, one import job is no listing; every name once', () => {
  const id = { in: 'path', name: 'id', required: true, schema: { type: 'string' } };
  const tools = buildTools({
    paths: {
      '/v1/social-accounts/{id}/metrics': { get: { parameters: [id] } },
      '/v1/social-accounts/{id}/imports': { get: { summary: 'import jobs', parameters: [id] }, post: { parameters: [id] } },
      '/v1/social-accounts/{id}/imports/{importId}': { get: { summary: 'an import job', parameters: [id, { in: 'path', name: 'importId', required: true, schema: { type: 'string' } }] } },
      '/v1/social-accounts/{id}/boards': { get: { summary: 'boards', parameters: [id] } },
    },
  });
  const names = tools.map((t) => t.name);
  assert.deepEqual(names.toSorted(), ['get_account_metrics', 'list_boards', 'list_imports']);
  assert.equal(tools.find((t) => t.name === 'list_imports')!.request({ id: 'a1' }).path, '/v1/social-accounts/a1/imports');
});
