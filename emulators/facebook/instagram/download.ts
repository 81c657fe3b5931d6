// Meta downloads ("cURLs") every media URL a container names. The emulator does the same, so a URL
// Crier hands over that nothing can fetch fails here as it would at Meta. `ca` lets tests trust
// their self-signed HTTPS hosts; without it the system's roots apply.
import { createHash } from 'node:crypto';
import { sniff } from '../../shared/sniff.ts';
import type { FetchedMedia } from './store.ts';

/** Meta's cap on an image (2207004 beyond) and a Reel (unverified: 300 MB at most is read here). */
const MAX_BYTES = 300 * 1024 * 1024;

export type Downloader = (url: string) => Promise<FetchedMedia | { failed: string }>;

/** The bytes themselves, for a Page photo posted by `url`. */
export type ByteDownloader = (url: string) => Promise<Buffer | undefined>;

/** `ca` may grow after start (a test trusts a host it started later): the agent follows it. */
export async function createDownloader(ca: string[]): Promise<Downloader> {
  const { Agent, fetch } = await import('undici');
  let agent: { trusted: number; dispatcher: InstanceType<typeof Agent> } | undefined;
  const dispatcherNow = () => {
    if (!ca.length) return undefined;
    if (agent?.trusted !== ca.length) agent = { trusted: ca.length, dispatcher: new Agent({ connect: { ca: [...ca] } }) };
    return agent.dispatcher;
  };
  return async (url) => {
    const dispatcher = dispatcherNow();
    if (!/^https?:\/\//i.test(url)) return { failed: 'not an http(s) URL' };
    try {
      const res = await fetch(url, { ...(dispatcher ? { dispatcher } : {}), signal: AbortSignal.timeout(30_000) });
      if (res.status !== 200) return { failed: `HTTP ${res.status}` };
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > MAX_BYTES) return { failed: 'too large' };
      // Meta judges a file by its bytes, not by the Content-Type it was served with.
      const contentType = sniff(bytes)?.mime ?? (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
      return { url, contentType, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    } catch (error) {
      return { failed: (error as Error).message };
    }
  };
}

export async function createByteDownloader(ca: string[]): Promise<ByteDownloader> {
  const { Agent, fetch } = await import('undici');
  return async (url) => {
    try {
      const dispatcher = ca.length ? new Agent({ connect: { ca: [...ca] } }) : undefined;
      const res = await fetch(url, { ...(dispatcher ? { dispatcher } : {}), signal: AbortSignal.timeout(30_000) });
      return res.status === 200 ? Buffer.from(await res.arrayBuffer()) : undefined;
    } catch {
      return undefined;
    }
  };
}
