// Where a Mastodon account's calls go. Every instance is a server its account's owner chose, named at
// connect: like a media URL or a Bluesky PDS, it is reached only through the SSRF guard (https only,
// addresses judged when the socket opens: `userFetch`). The one exception is the instance the operator
// configured (CRIER_MASTODON_BASE_URL: the sandbox's emulator), trusted as every configured API host
// is and called directly. The instance's limits come from GET /api/v2/instance
// (https://docs.joinmastodon.org/methods/instance/#v2), read before each publish.
import { DEFAULT_LIMITS, type InstanceLimits } from './shape.ts';
import type { MastodonClient } from './client.ts';

/**
 * The instance's origin from what a person types: `mastodon.social`, `https://mastodon.social/`,
 * `https://mastodon.social/@alice` all name https://mastodon.social. Undefined when it names no host,
 * carries credentials, or is not http(s) (the guard then judges the scheme and the address).
 */
export function instanceOrigin(raw: string): string | undefined {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  return url.origin;
}

/**
 * The configured instance named by its domain, the one its handles carry (`sandbox.mastodon.test` for
 * the sandbox's, which listens on a loopback port): its configured origin then, so connecting the
 * account it shows (`sandbox@sandbox.mastodon.test`) by its domain reaches it. Any other origin as given.
 */
export async function configuredOrigin(origin: string, trusted: string | undefined): Promise<string> {
  if (trusted === undefined) return origin;
  const own = new URL(trusted).origin;
  if (own === origin) return origin;
  const domain = await configuredDomain(own);
  return domain !== undefined && new URL(origin).host === domain ? own : origin;
}

const configuredDomains = new Map<string, Promise<string | undefined>>();

/** The configured instance's domain, asked once (a failed ask is asked again next time). */
function configuredDomain(origin: string): Promise<string | undefined> {
  let known = configuredDomains.get(origin);
  if (!known) {
    known = fetch(`${origin}/api/v2/instance`, { signal: AbortSignal.timeout(5_000) })
      .then(async (res) => (res.ok ? ((await res.json()) as { domain?: unknown }).domain : undefined))
      .then((domain) => (typeof domain === 'string' ? domain.toLowerCase() : undefined));
    known.then((domain) => { if (domain === undefined) configuredDomains.delete(origin); }, () => configuredDomains.delete(origin));
    configuredDomains.set(origin, known);
  }
  return known.catch(() => undefined);
}

/** The fetch an instance is called with: the operator's configured one directly, any other through `userFetch`. */
export function instanceFetch(origin: string, trusted: string | undefined, userFetch: typeof fetch): typeof fetch {
  return trusted !== undefined && new URL(trusted).origin === origin ? fetch : userFetch;
}

/** The part of the Instance entity's `configuration` Crier reads (https://docs.joinmastodon.org/entities/Instance/#configuration). */
interface InstanceConfiguration {
  statuses?: { max_characters?: number; max_media_attachments?: number; characters_reserved_per_url?: number };
  media_attachments?: { image_size_limit?: number; video_size_limit?: number };
  polls?: { max_options?: number; max_characters_per_option?: number; min_expiration?: number; max_expiration?: number };
}

/**
 * The instance's own domain name (GET /api/v2/instance `domain`: https://docs.joinmastodon.org/entities/Instance/#domain),
 * the one its accounts' handles carry (`user@domain`), which an instance serving its API on another host
 * (WEB_DOMAIN) does not share with its address; undefined when the instance does not say (before 4.0).
 */
export async function instanceDomain(client: MastodonClient): Promise<string | undefined> {
  const answer = await client.answer({ path: '/api/v2/instance' });
  if (answer.status < 200 || answer.status >= 300) return undefined;
  const domain = (answer.body as { domain?: unknown } | undefined)?.domain;
  return typeof domain === 'string' && /^[a-z0-9.:-]{1,253}$/i.test(domain) ? domain.toLowerCase() : undefined;
}

/**
 * The instance's limits, each figure it does not give taken from a default instance. An instance older
 * than Mastodon 4.0 has no /api/v2/instance (404): the defaults then.
 */
export async function instanceLimits(client: MastodonClient): Promise<InstanceLimits> {
  const answer = await client.answer({ path: '/api/v2/instance' });
  if (answer.status === 404) return DEFAULT_LIMITS;
  if (answer.status < 200 || answer.status >= 300) throw client.failureOf(answer);
  const config = ((answer.body as { configuration?: InstanceConfiguration } | undefined)?.configuration) ?? {};
  const pick = (value: number | undefined, fallback: number) => (typeof value === 'number' && value > 0 ? value : fallback);
  const d = DEFAULT_LIMITS;
  return {
    maxCharacters: pick(config.statuses?.max_characters, d.maxCharacters),
    charactersPerUrl: pick(config.statuses?.characters_reserved_per_url, d.charactersPerUrl),
    maxMedia: pick(config.statuses?.max_media_attachments, d.maxMedia),
    poll: {
      maxOptions: pick(config.polls?.max_options, d.poll.maxOptions),
      maxCharactersPerOption: pick(config.polls?.max_characters_per_option, d.poll.maxCharactersPerOption),
      minExpiration: pick(config.polls?.min_expiration, d.poll.minExpiration),
      maxExpiration: pick(config.polls?.max_expiration, d.poll.maxExpiration),
    },
    imageSizeLimit: pick(config.media_attachments?.image_size_limit, d.imageSizeLimit),
    videoSizeLimit: pick(config.media_attachments?.video_size_limit, d.videoSizeLimit),
  };
}
