// How an emulator downloads a URL a post names (an image, a video, a cover), as the real network
// does. By default it dials out itself with undici, trusting the system's certificate authorities
// plus the ones a test hands it (its local HTTPS hosts). Whoever runs the emulator may hand it a
// fetch of their own instead (`fetchMedia`): Crier's sandbox does, so that a URL someone posts is
// fetched through Crier's SSRF guard rather than from inside the machine with no rules. Emulators
// import nothing from Crier: the fetch is given to them, never looked up.
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';

/** The fetch an emulator downloads media with: the standard signature, so `fetch` itself is one. */
export type FetchMedia = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

export interface MediaFetchOptions {
  /** A fetch of the caller's own; without it, undici trusting `ca` on top of the system's roots. */
  fetchMedia?: FetchMedia;
  /** Extra certificate authorities for the default fetch (read at each download: it may grow). */
  ca: readonly string[];
}

/** Networks give up on a download after about this long. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * Fetches `url` and hands the response to `read`, which consumes its body; what the download held
 * (the default fetch's agent) is let go once `read` is done. Errors of the fetch are thrown as they come.
 */
export async function withMediaResponse<T>(url: string, options: MediaFetchOptions, read: (response: Response) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  if (options.fetchMedia) return read(await options.fetchMedia(url, { signal }));
  const dispatcher = options.ca.length ? new Agent({ connect: { ca: [...rootCertificates, ...options.ca] } }) : undefined;
  try {
    // undici's Response is the platform's (Node's fetch is undici); only the type declarations differ.
    const response = (await undiciFetch(url, { signal, ...(dispatcher ? { dispatcher } : {}) })) as unknown as Response;
    return await read(response);
  } finally {
    await dispatcher?.close();
  }
}

/** The body of `response`, chunk by chunk (empty when it has none). */
export async function* bodyChunks(response: Response): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) yield chunk;
}
