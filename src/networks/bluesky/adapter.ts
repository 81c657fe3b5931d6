// Publishing to Bluesky with the official client (@atproto/api). The record key of each post is
// chosen and stored before createRecord, so after a crash getRecord tells for sure whether it exists.
// The account's PDS address is the user's (see pds.ts): calls to it go through the SSRF guard.
import { AtpAgent, RichText, XRPCError, type AtpSessionData } from '@atproto/api';
import { TID } from '@atproto/common-web';
import { PublishError } from '../errors.ts';
import { isTransientSsrf, ssrfCause } from '../../security/ssrf.ts';
import type { NetworkAdapter, PartRef, PreparedPublish, PublishInput } from '../types.ts';
import { isServiceOrigin, pdsFetch } from './pds.ts';
import { checkMedia } from './shape.ts';

const POST = 'app.bsky.feed.post';
const MAX_GRAPHEMES = 300;
const MAX_IMAGE_BYTES = 1_000_000;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

export function createBlueskyAdapter(options: { service: string }): NetworkAdapter {
  return {
    network: 'bluesky',
    async prepare(input) {
      const texts = input.containers.map((c, i) => (i === 0 && typeof input.block?.content === 'string' ? input.block.content : c.content));
      checkContent(input, texts);
      const agent = await openSession(input, options.service);
      return preparedFor(agent, input, texts, classifierFor(agent, options.service));
    },
  };
}

/** The media (shape.ts), then each text's length as Bluesky counts it (graphemes, by the SDK loaded to publish). */
function checkContent(input: PublishInput, texts: string[]): void {
  checkMedia(input);
  texts.forEach((text, i) => {
    const length = new RichText({ text }).graphemeLength;
    if (length > MAX_GRAPHEMES) {
      throw new PublishError('permanent', `bluesky: container ${i + 1} has ${length} characters (graphemes); Bluesky allows ${MAX_GRAPHEMES}`);
    }
  });
}

/**
 * Resumes the stored session (refreshing it if needed), or logs in with the app password, at the
 * account's PDS. A PDS address the guard refuses ends it there: nothing is sent to it.
 */
async function openSession(input: PublishInput, service: string): Promise<AtpAgent> {
  const saves: Promise<void>[] = [];
  const agent = new AtpAgent({
    service: input.account.serviceUrl ?? service,
    fetch: pdsFetch(service, input.userFetch),
    persistSession: (_event, session) => {
      if (session) saves.push(input.saveTokens({ accessToken: session.accessJwt, refreshToken: session.refreshJwt }));
    },
  });
  const classify = classifierFor(agent, service);
  const { accessToken, refreshToken, credential, networkUniqueId, username } = input.account;
  let resumed = false;
  if (accessToken && refreshToken) {
    const session: AtpSessionData = { accessJwt: accessToken, refreshJwt: refreshToken, did: networkUniqueId, handle: username, active: true };
    try {
      await agent.resumeSession(session);
      resumed = true;
    } catch (error) {
      // An expired session falls back to the app password; a refused address would refuse that too.
      if (ssrfCause(error)) throw classify(error, 'resuming the session');
    }
  }
  if (!resumed) {
    if (!credential) throw new PublishError('auth', 'bluesky: the session expired and no app password is stored; reconnect the account');
    try {
      await agent.login({ identifier: networkUniqueId || username, password: credential });
    } catch (error) {
      throw classify(error, 'logging in');
    }
  }
  await Promise.all(saves);
  return agent;
}

function preparedFor(agent: AtpAgent, input: PublishInput, texts: string[], classify: Classifier): PreparedPublish {
  const did = agent.session!.did;
  const handle = agent.session!.handle;
  const refFor = (uri: string, cid: string, rkey: string): PartRef => ({
    platformId: uri,
    url: `https://bsky.app/profile/${handle}/post/${rkey}`,
    ref: { uri, cid },
  });
  const replyTo = (root: PartRef | undefined) => {
    if (!root?.ref) return undefined;
    const strong = { uri: String(root.ref.uri), cid: String(root.ref.cid) };
    // Spec: every later container replies to the root.
    return { root: strong, parent: strong };
  };

  return {
    reserve: () => ({ rkey: TID.nextStr() }),
    async publishPart(position, reservation, root) {
      const rkey = String(reservation.rkey);
      const rich = new RichText({ text: texts[position]! });
      try {
        await rich.detectFacets(agent);
        const images = [];
        for (const media of input.containers[position]!.media) {
          images.push({ image: await uploadImage(agent, input, media.url, media.filename), alt: media.altText ?? '' });
        }
        const record = {
          $type: POST,
          text: rich.text,
          ...(rich.facets?.length ? { facets: rich.facets } : {}),
          ...(images.length ? { embed: { $type: 'app.bsky.embed.images', images } } : {}),
          ...(replyTo(root) ? { reply: replyTo(root) } : {}),
          createdAt: new Date().toISOString(),
        };
        const res = await agent.com.atproto.repo.createRecord({ repo: did, collection: POST, rkey, record });
        return refFor(res.data.uri, res.data.cid, rkey);
      } catch (error) {
        throw classify(error, `publishing container ${position + 1}`);
      }
    },
    async reconcile(_position, reservation) {
      const rkey = String(reservation.rkey);
      try {
        const res = await agent.com.atproto.repo.getRecord({ repo: did, collection: POST, rkey });
        return refFor(res.data.uri, res.data.cid!, rkey);
      } catch (error) {
        if (error instanceof XRPCError && (error.error === 'RecordNotFound' || /could not locate record/i.test(error.message))) return 'absent';
        const classified = classify(error, 'checking an earlier attempt');
        throw classified.kind === 'retryable' ? classified : new PublishError('unknown', `${classified.message}; could not tell whether it was published`);
      }
    },
  };
}

async function uploadImage(agent: AtpAgent, input: PublishInput, url: string, filename: string) {
  const { bytes, contentType } = await input.fetchMedia(url);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!IMAGE_TYPES.has(type)) throw new PublishError('permanent', `bluesky: ${filename} is ${type || 'of an unknown type'}; Bluesky accepts JPEG, PNG, WEBP and GIF images`);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new PublishError('permanent', `bluesky: ${filename} is ${bytes.length} bytes; Bluesky accepts images up to ${MAX_IMAGE_BYTES} bytes`);
  }
  const res = await agent.uploadBlob(new Uint8Array(bytes), { encoding: type });
  return res.data.blob;
}

type Classifier = (error: unknown, doing: string) => PublishError;

/**
 * XRPC errors -> PublishError. The reason is the server's own words when every address the agent calls
 * is the configured service; from the account's own PDS, only its error name and status.
 */
function classifierFor(agent: AtpAgent, service: string): Classifier {
  const trusted = () => isServiceOrigin(agent.serviceUrl, service) && isServiceOrigin(agent.dispatchUrl, service);
  return (error, doing) => classify(error, doing, trusted());
}

/** A bogus or expired token is a 400 on the PDS, yet an auth problem. */
function classify(error: unknown, doing: string, trusted: boolean): PublishError {
  if (error instanceof PublishError) return error;
  const refused = ssrfCause(error);
  if (refused) {
    const reason = `bluesky: the account's PDS address was refused (${refused.message}) while ${doing}`;
    return isTransientSsrf(refused) ? new PublishError('retryable', reason) : new PublishError('permanent', `${reason}; reconnect the account`);
  }
  if (error instanceof XRPCError) {
    const reason = trusted ? `${error.error ?? 'Error'}: ${error.message}` : shortReason(error);
    if (error.status === 401 || ['ExpiredToken', 'InvalidToken', 'AuthenticationRequired', 'AccountTakedown'].includes(error.error ?? '')) {
      return new PublishError('auth', `bluesky: ${reason} while ${doing}; reconnect the account`);
    }
    if (error.status === 429) {
      const reset = Number(error.headers?.['ratelimit-reset']);
      return new PublishError('retryable', `bluesky: rate limited (${reason})`, reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60_000);
    }
    if (error.status >= 500 || error.status === 1) return new PublishError('retryable', `bluesky: ${reason} while ${doing}`);
    return new PublishError('permanent', `bluesky: ${reason}`);
  }
  return new PublishError('retryable', `bluesky: ${(error as Error).message ?? String(error)} while ${doing}`);
}

/** What an untrusted server said, reduced to what cannot carry its text: an XRPC error name and the status. */
function shortReason(error: XRPCError): string {
  const name = /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(error.error ?? '') ? error.error : 'Error';
  return `${name} (the account's PDS ${error.status >= 100 ? `answered HTTP ${error.status}` : 'gave no valid answer'})`;
}
