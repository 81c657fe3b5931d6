// HTTP/1.1 over a bare TCP socket, for what fetch refuses to send (control characters in headers,
// malformed URLs) and for clients that write their whole body before they read the answer.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Writing the request failed (EPIPE, ECONNRESET): the server closed the connection mid-upload. */
  writeError: string | undefined;
}

/**
 * Sends `head` (request line and headers, without Connection and the blank line) and then `bodyBytes` zero bytes in
 * 64 KiB chunks, each written only once the previous one is flushed, then reads the answer: the way a
 * simple client (Python's http.client, for one) behaves.
 */
export function rawRequest(baseUrl: string, head: string, bodyBytes = 0): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let writeError: string | undefined;
    socket.pause(); // read the answer only once everything is written
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError ??= error.code ?? error.message;
    });
    socket.on('close', () => {
      try {
        resolve({ ...parseResponse(Buffer.concat(received).toString('utf8')), writeError });
      } catch (error) {
        reject(new Error(`no HTTP answer (write error: ${writeError}): ${(error as Error).message}`));
      }
    });
    // The server closes the connection after its answer; the client never half-closes (Node's server
    // would abort a request whose client ended its side).
    socket.write(`${head}\r\nConnection: close\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const writeNext = (): void => {
      if (sent >= bodyBytes || socket.destroyed) {
        socket.resume();
        return;
      }
      const size = Math.min(chunk.length, bodyBytes - sent);
      sent += size;
      socket.write(chunk.subarray(0, size), (error) => (error ? socket.resume() : writeNext()));
    };
    writeNext();
  });
}

function parseResponse(text: string): Omit<RawResponse, 'writeError'> {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`incomplete answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rawBody = text.slice(end + 4);
  let body: unknown = rawBody;
  try {
    body = JSON.parse(rawBody);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
