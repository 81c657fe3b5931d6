// Request logs never carry what authenticates a request: the OAuth callback's code and state, a
// pending connect's session token, a signed upload URL's signature, an API key (in the Authorization
// header or in the query string), any query parameter named like a credential.
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
    await fetch(`${base}/v1/posts?api_key=crier_KEY-SECRET-6&limit=5&Access_Token=TOKEN-SECRET-7&client%5Fsecret=SECRET-8&password=PW-SECRET-9&X-Amz-Signature=SIG-SECRET-10&authKey=AUTH-SECRET-11&tenant_id=t1`);
  } finally {
    await app.close();
  }
  const log = lines.join('');
  const secrets = ['CODE-SECRET-1', 'STATE-SECRET-2', 'SESSION-SECRET-3', 'SIG-SECRET-4', 'KEY-SECRET-5', 'KEY-SECRET-6', 'TOKEN-SECRET-7', 'SECRET-8', 'PW-SECRET-9', 'SIG-SECRET-10', 'AUTH-SECRET-11'];
  for (const secret of secrets) assert.ok(!log.includes(secret), `${secret} was logged`);
  // What is useful stays: which route, the names of the parameters, and the harmless values.
  const urls = lines.map((l) => JSON.parse(l)).filter((l) => l.req).map((l) => l.req.url);
  assert.deepEqual(urls, [
    '/oauth/callback/x?code=[redacted]&state=[redacted]',
    '/v1/social-accounts/pending/[session]',
    '/media-uploads/12?expires=1&signature=[redacted]',
    '/v1/posts?limit=5',
    '/v1/posts?api_key=[redacted]&limit=5&Access_Token=[redacted]&client%5Fsecret=[redacted]&password=[redacted]&X-Amz-Signature=[redacted]&authKey=[redacted]&tenant_id=t1',
  ]);
});

test("the dashboard's ?session= and every credential-named parameter are logged redacted", async () => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  app.get('/dashboard/', async () => ({}));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    // Where the network sends the browser back after a connect: the pending connection's session.
    await fetch(`${base}/dashboard/?session=SESSION-SECRET-1&tab=accounts`);
    await fetch(`${base}/dashboard/?sig=SIG-SECRET-2&pwd=PW-SECRET-3&jwt=JWT-SECRET-4&bearer=BEARER-SECRET-5&credential=CRED-SECRET-6&Session_Id=SESSION-SECRET-7`);
  } finally {
    await app.close();
  }
  const log = lines.join('');
  assert.ok(!log.includes('-SECRET-'), log);
  const urls = lines.map((l) => JSON.parse(l)).filter((l) => l.req).map((l) => l.req.url);
  assert.deepEqual(urls, [
    '/dashboard/?session=[redacted]&tab=accounts',
    '/dashboard/?sig=[redacted]&pwd=[redacted]&jwt=[redacted]&bearer=[redacted]&credential=[redacted]&Session_Id=[redacted]',
  ]);
});
