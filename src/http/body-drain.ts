// An answer given before the request body has arrived (a 413 judged from Content-Length, a 401, an
// upload refused before its bytes are read) waits for the rest of the body, read and discarded, before
// it goes out. Otherwise the connection is closed while the client is still writing: the client's
// writes fail with EPIPE or ECONNRESET, and one that reads only after writing everything (or loses
// the race) never sees the answer. The wait is bounded in bytes and time; past either bound the
// connection is closed at once, as before.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The most a refused body is read for: far above the JSON body limit, far below a video upload. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

export function installBodyDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete) return;
    if (!(await drainBody(request.raw))) reply.header('connection', 'close');
  });
}

/** Reads what is left of the body; true once it has all arrived, false past a bound or if the client went away. */
function drainBody(raw: IncomingMessage): Promise<boolean> {
  if (raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed || Number(raw.headers['content-length']) > DRAIN_MAX_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('close', onClose); // the error listener stays: an error after this is no one's
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DRAIN_MAX_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(onClose, DRAIN_MAX_MS);
    raw.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    raw.resume();
  });
}
