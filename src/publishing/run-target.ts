// One publishing job: claim the target, publish its containers in order (root first, the others as
// replies to the root), and record the outcome. Every step is written down before the next one, so
// a crash anywhere is resumed by the next attempt without posting anything twice.
import type { Logger } from 'pino';
import type { Db, Tx } from '../db/pool.ts';
import type { NetworkOAuth } from '../networks/oauth.ts';
import type { AccountCredentials, ContainerInput, MediaFetcher, NetworkAdapter, NetworkId, PartRef, PreparedPublish } from '../networks/types.ts';
import type { PrepareMedia } from '../media/renditions.ts';
import { enqueueInTransaction, type Boss } from '../queue/boss.ts';
import { PUBLISH_QUEUE, type PublishJob } from '../queue/queues.ts';
import type { SecretBox } from '../security/crypto.ts';
import { claimTarget, isCurrentAttempt, keepAttemptAlive, loadAccount, type Claim } from './claim.ts';
import { PublishError } from './errors.ts';
import { failpoint } from './failpoints.ts';
import { finishAttempt, type Outcome } from './finish.ts';
import { confirmPart, loadParts, reservePart, type StoredPart } from './parts.ts';
import { saveAccountSecrets } from '../accounts/secrets.ts';
import { refreshRefusedToken } from '../accounts/token-refresh.ts';

export interface EngineDeps {
  db: Db;
  boss: Boss;
  box: SecretBox;
  adapters: Partial<Record<NetworkId, NetworkAdapter>>;
  fetchMedia: MediaFetcher;
  /** A standard fetch through the SSRF guard, for API addresses a user chose (a Bluesky PDS). */
  userFetch: typeof fetch;
  /** The networks' OAuth sides: a token a network refuses is refreshed once before giving up on it. */
  oauthProviders: Partial<Record<NetworkId, NetworkOAuth>>;
  /** processMedia: swaps videos outside the network's profile for conforming renditions (media/renditions.ts). */
  prepareMedia?: PrepareMedia;
  logger: Logger;
  /** Attempts per target before a retryable error becomes a failure. */
  maxAttempts: number;
  /** First retry delay; doubles each attempt (a network's Retry-After wins when longer). */
  retryBaseMs: number;
  /** An attempt whose lease was not renewed for this long is dead and may be taken over. */
  leaseSeconds: number;
}

class Superseded extends Error {}

export async function runPublishJob(deps: EngineDeps, job: PublishJob, jobId: string): Promise<void> {
  failpoint('after-claim');
  const claim = await claimTarget(deps.db, deps.box, job, jobId, deps.leaseSeconds);
  if (!claim) return; // cancelled, rescheduled or already done: a stale job is a no-op
  if (claim === 'busy') {
    // A live attempt holds the target (a duplicate job): look again once its lease could have lapsed.
    await enqueueInTransaction(deps.boss, deps.db, PUBLISH_QUEUE, [{ data: job, startAfter: new Date(Date.now() + deps.leaseSeconds * 1000) }]);
    return;
  }
  failpoint('after-attempt');
  const stopLease = keepAttemptAlive(deps.db, claim.attemptId, deps.leaseSeconds);
  let outcome: Outcome;
  try {
    outcome = await publish(deps, claim);
  } catch (error) {
    if (error instanceof Superseded) return;
    if (!(error instanceof PublishError)) throw error; // a bug or the database: pg-boss retries the job
    outcome = toOutcome(deps, claim, error);
  } finally {
    stopLease();
  }
  const recorded = await finishAttempt(deps.db, claim, outcome, (tx, delayMs) => requeue(deps.boss, tx, claim, delayMs));
  deps.logger.info({ targetId: claim.targetId, postId: claim.postId, network: claim.account.network, outcome: outcome.status, recorded }, 'publish attempt finished');
}

async function publish(deps: EngineDeps, claim: Claim): Promise<Outcome> {
  const adapter = deps.adapters[claim.account.network];
  if (!adapter) throw new PublishError('permanent', `${claim.account.network}: publishing to this network is not available yet in this Crier version`);
  if (!claim.accountActive) {
    throw new PublishError('permanent', `${claim.account.network}: the account @${claim.account.username} is disconnected (its token expired or was revoked); reconnect it and create a new post`);
  }
  const containers = claim.processMedia && deps.prepareMedia
    ? await deps.prepareMedia({ orgId: claim.orgId, network: claim.account.network, block: claim.block, containers: claim.containers })
    : claim.containers;
  // Parts exist only if an earlier attempt ran (a crash or a retry); a first attempt skips the query.
  const resumed = claim.attemptCount > 1 || claim.interrupted;
  try {
    return await publishWith(deps, claim, adapter, claim.account, containers, resumed);
  } catch (error) {
    if (!(error instanceof PublishError) || error.kind !== 'auth') throw error;
    const refreshed = await refreshedAccount(deps, claim.account, error);
    return await publishWith(deps, claim, adapter, refreshed, containers, true);
  }
}

async function publishWith(
  deps: EngineDeps, claim: Claim, adapter: NetworkAdapter, account: AccountCredentials, containers: ContainerInput[], resumed: boolean,
): Promise<Outcome> {
  const prepared = await adapter.prepare({
    account,
    containers,
    block: claim.block,
    fetchMedia: deps.fetchMedia,
    userFetch: deps.userFetch,
    saveTokens: (tokens) => saveAccountSecrets(deps.db, deps.box, account.id, tokens),
  });
  const parts = resumed ? await loadParts(deps.db, claim.targetId) : new Map();
  let root: PartRef | undefined;
  for (let position = 0; position < claim.containers.length; position++) {
    const ref = await publishContainer(deps, claim, prepared, parts.get(position), position, root);
    if (position === 0) root = ref;
  }
  return { status: 'published', platformPostId: root!.platformId, platformPostUrl: root!.url };
}

/**
 * The network refused the account's token. The refresher may not have replaced it yet (a worker was
 * down): refresh it once and hand back the account with the new token. Only when that cannot be done
 * or is refused too does the refusal stand, and the account is disconnected.
 */
async function refreshedAccount(deps: EngineDeps, account: AccountCredentials, refusal: PublishError): Promise<AccountCredentials> {
  let refresh;
  try {
    refresh = await refreshRefusedToken(deps.db, deps.box, deps.oauthProviders, account);
  } catch (error) {
    throw new PublishError('retryable', `${refusal.message}; refreshing the token failed for now (${(error as Error).message})`);
  }
  if (refresh.outcome === 'unavailable') throw refusal;
  if (refresh.outcome === 'refused') throw new PublishError('auth', `${refusal.message}; refreshing the token was refused too (${refresh.reason})`);
  return (await loadAccount(deps.db, deps.box, account.id)).credentials;
}

async function publishContainer(
  deps: EngineDeps,
  claim: Claim,
  prepared: PreparedPublish,
  stored: StoredPart | undefined,
  position: number,
  root: PartRef | undefined,
): Promise<PartRef> {
  if (stored?.status === 'published' && stored.ref) return stored.ref;
  let reservation: Record<string, unknown>;
  if (stored?.status === 'reserved') {
    // An earlier attempt got as far as the call: ask the network before doing anything.
    const found = await prepared.reconcile(position, stored.reservation, root);
    if (found !== 'absent') {
      await confirmPart(deps.db, claim.orgId, claim.targetId, position, found);
      return found;
    }
    reservation = stored.reservation;
  } else {
    reservation = prepared.reserve(position);
    await reservePart(deps.db, claim.orgId, claim.targetId, position, reservation);
  }
  if (!(await isCurrentAttempt(deps.db, claim.targetId, claim.attemptId))) throw new Superseded();
  const ref = await prepared.publishPart(position, reservation, root);
  failpoint('after-network');
  await confirmPart(deps.db, claim.orgId, claim.targetId, position, ref);
  return ref;
}

function toOutcome(deps: EngineDeps, claim: Claim, error: PublishError): Outcome {
  switch (error.kind) {
    case 'permanent':
      return { status: 'failed', error: error.message };
    case 'unknown':
      return { status: 'unknown', error: error.message };
    case 'auth':
      return { status: 'failed', error: error.message, deactivateAccount: true };
    case 'retryable': {
      if (claim.attemptCount >= deps.maxAttempts) {
        return { status: 'failed', error: `${error.message} (gave up after ${claim.attemptCount} attempts)` };
      }
      const backoff = deps.retryBaseMs * 2 ** (claim.attemptCount - 1);
      return { status: 'retry', error: error.message, delayMs: Math.max(backoff, error.retryAfterMs ?? 0) };
    }
  }
}

/** The retry is a new job of the same generation, queued in the transaction that recorded the failure. */
async function requeue(boss: Boss, tx: Tx, claim: Claim, delayMs: number): Promise<void> {
  const data: PublishJob = { targetId: claim.targetId, postId: claim.postId, generation: claim.generation };
  await enqueueInTransaction(boss, tx, PUBLISH_QUEUE, [{ data, startAfter: new Date(Date.now() + delayMs) }]);
}
