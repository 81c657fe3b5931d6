// Request logs never carry what authenticates a request: the OAuth callback's code and state, a
// pending connect's session token, a signed upload URL's signature, an API key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { createLogger } from '../../src/log.ts';

test('request URLs and headers are logged without their credentials', async () => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  app.get('/oauth/callback/:network', async () => ({}));
  app.get('/v1/social-accounts/pending/:token', async () => ({}));
  app.put('/media-uploads/:id', async () => ({}));
  app.get('/v1/posts', async () => ({}));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    await fetch(`${base}/oauth/callback/x?code=CODE-SECRET-1&state=STATE-SECRET-2`);
    await fetch(`${base}/v1/social-accounts/pending/SESSION-SECRET-3`);
    await fetch(`${base}/media-uploads/12?expires=1&signature=SIG-SECRET-4`, { method: 'PUT' });
    await fetch(`${base}/v1/posts?limit=5`, { headers: { authorization: 'Bearer crier_KEY-SECRET-5' } });
  } finally {
    await app.close();
  }
  const log = lines.join('');
  for (const secret of ['CODE-SECRET-1', 'STATE-SECRET-2', 'SESSION-SECRET-3', 'SIG-SECRET-4', 'KEY-SECRET-5']) assert.ok(!log.includes(secret), `${secret} was logged`);
  // What is useful stays: which route, and a harmless query.
  const urls = lines.map((l) => JSON.parse(l)).filter((l) => l.req).map((l) => l.req.url);
  assert.deepEqual(urls, ['/oauth/callback/x?[redacted]', '/v1/social-accounts/pending/[session]', '/media-uploads/12?[redacted]', '/v1/posts?limit=5']);
});
