// Networks that fetch media themselves (`media.delivery: 'public_url'`: Instagram, Threads, Pinterest,
// Google Business) are handed the URL a post names (spec rule 9). Crier's own media is served under
// PUBLIC_BASE_URL, which the real network can reach only when it is a public https address: a local
// install (http://localhost:3000) or a private one would have the network fail later with a vaguer
// reason, so the destination fails first, before any call, saying what to set. In the sandbox and in
// tests the network is an emulator on this machine (its base URL overridden), which fetches from
// Crier directly.
import { isIP } from 'node:net';
import { classifyAddress } from '../security/ip-ranges.ts';
import { PublishError } from '../core/errors.ts';

export interface PublicUrlContext {
  /** Crier's PUBLIC_BASE_URL. */
  publicBaseUrl: string;
  /** The network is the real one (no CRIER_<NETWORK>_BASE_URL), not an emulator. */
  realNetwork: boolean;
}

/** Throws the permanent PublishError when `network` could not fetch `url` from Crier. */
export function checkFetchableByNetwork(network: string, url: string, ctx: PublicUrlContext): void {
  if (!ctx.realNetwork || !url.startsWith(`${ctx.publicBaseUrl}/`)) return;
  const why = unreachableBecause(ctx.publicBaseUrl);
  if (!why) return;
  throw new PublishError('permanent', `${network}: ${network} downloads media from Crier at ${ctx.publicBaseUrl}, which ${why}; set PUBLIC_BASE_URL to a public https address (or use media at a public https URL)`);
}

/** Why the internet cannot reach `base`, or undefined when it may. */
function unreachableBecause(base: string): string | undefined {
  const url = new URL(base);
  if (url.protocol !== 'https:') return 'is not https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return classifyAddress(host) === 'public' ? undefined : 'is not a public address';
  if (host === 'localhost' || /\.(localhost|local|internal|lan|home\.arpa)$/i.test(host) || !host.includes('.')) return 'is not a public host name';
  return undefined;
}
