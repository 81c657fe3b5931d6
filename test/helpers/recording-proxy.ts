// A proxy between Crier and an emulator that keeps every exchange whole (request and answer, bodies
// included), so a test can hold both sides to the network's official description (openapi-check.ts).
// The emulators' own record (GET /__emulator/calls) keeps digests only; this one is for tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedExchange {
  method: string;
  path: string;
  query: Record<string, string[]>;
  contentType?: string;
  requestBody: Buffer;
  status: number;
  answerType?: string;
  answerBody: Buffer;
}

export interface RecordingProxy {
  url: string;
  exchanges: RecordedExchange[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: RecordedExchange[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const requestBody = Buffer.concat(chunks);
    const url = new URL(req.url!, target);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))) as Record<string, string>;
    const answer = await fetch(url, { method: req.method, headers, body: requestBody.length ? requestBody : undefined, redirect: 'manual' });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    const query: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) (query[name] ??= []).push(value);
    exchanges.push({
      method: req.method!, path: url.pathname, query, contentType: req.headers['content-type'], requestBody,
      status: answer.status, answerType: answer.headers.get('content-type') ?? undefined, answerBody,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => { if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value; });
    res.writeHead(answer.status, out).end(answerBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
