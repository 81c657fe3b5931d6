// Stopping the API while a keep-alive client's request is in flight: the request is answered, and the
// server closes as soon as that connection falls idle, not after the keep-alive timeout (72 s).
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { startTestServer } from '../helpers/harness.ts';

test('close() with a request in flight on a keep-alive connection: answered, then closed at once', async () => {
  const server = await startTestServer();
  const org = await server.createOrg();
  const agent = new http.Agent({ keepAlive: true });
  const { port } = new URL(server.url);
  // A create whose body arrives in two parts: the request is in flight while close() begins.
  const body = JSON.stringify({ accounts: ['nobody'], containers: [{ content: 'x'.repeat(2000) }] });
  const answered = new Promise<number>((resolve, reject) => {
    const request = http.request({ agent, host: '127.0.0.1', port, method: 'POST', path: '/v1/posts', headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
    request.write(body.slice(0, 100));
    setTimeout(() => request.end(body.slice(100)), 300);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const closing = server.close();
  assert.ok([400, 404, 422].includes(await answered), 'the request in flight is answered');
  await closing;
  agent.destroy();
  assert.ok(Date.now() - started < 5_000, `closed ${Date.now() - started} ms after close() began`);
});
