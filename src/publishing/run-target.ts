// Publishing one claimed target: its containers in order (root first, the others as replies to the
// root), each reserved before its network call and confirmed after it, then the outcome. Every step
// is written down before the next one, so a crash anywhere is resumed by the next attempt without
// posting anything twice.
import type { Logger } from 'pino';
import type { Db } from '../db/pool.ts';
import type { NetworkOAuth } from '../networks/oauth.ts';
import { createLedger } from '../accounts/ledger.ts';
import type { ManagedApps } from '../config.ts';
import type { AccountCredentials } from '../core/account.ts';
import type { ContainerInput, PartRef } from '../core/post.ts';
import type { MediaFetcher, MediaOpener, MediaSource, NetworkAdapter, PreparedPublish } from '../networks/contract.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { CappedMediaOpener, MediaCap } from '../media/fetch.ts';
import type { PrepareMedia } from '../media/renditions.ts';
import type { SecretBox } from '../security/crypto.ts';
import { saveAccountSecrets } from '../accounts/secrets.ts';
import { refreshTokenNow } from '../accounts/token-refresh.ts';
import type { Claim } from './claim.ts';
import { loadAccount } from '../accounts/session.ts';
import { PublishError, PublishWait } from '../core/errors.ts';
import { failpoint } from './failpoints.ts';
import type { Outcome } from './finish.ts';
import { claimNetworkPost, type ConfirmedPart, loadParts, ownedElsewhere, type PartStep, type StoredPart } from './parts.ts';
import type { Semaphore } from './timing.ts';
import type { AccountQuotas, Admit } from './admission.ts';

/** A token expiring sooner than this is refreshed before the attempt starts: it would expire mid-upload. */
const TOKEN_MARGIN_MS = 60_000;

/** A quota wait shorter than this is not worth a trip through the queue (migration 016 uses the same). */
const ADMISSION_SLACK_MS = 50;

export interface EngineDeps {
  db: Db;
  box: SecretBox;
  adapters: Partial<Record<NetworkId, NetworkAdapter>>;
  fetchMedia: MediaFetcher;
  openMedia: CappedMediaOpener;
  /** Per network, the largest file it takes (its largest video): larger media fails before any upload. */
  mediaCaps?: Partial<Record<NetworkId, MediaCap>>;
  /** A standard fetch through the SSRF guard, for API addresses a user chose (a Bluesky PDS). */
  userFetch: typeof fetch;
  /** The networks' OAuth sides: a token a network refuses is refreshed once before giving up on it. */
  oauthProviders: Partial<Record<NetworkId, NetworkOAuth>>;
  /** The operator's apps: an account connected through one is refreshed with it. */
  managedApps?: ManagedApps;
  /** processMedia: swaps videos outside the network's profile for conforming renditions (media/renditions.ts). */
  prepareMedia?: PrepareMedia;
  logger: Logger;
  /** Attempts per target before a retryable error becomes a failure. */
  maxAttempts: number;
  /** The network's refusals (REFUSED_UNDONE) before a target fails; they are not counted as attempts. */
  maxRefusals: number;
  /** First retry delay; doubles each attempt (a network's Retry-After wins when longer). */
  retryBaseMs: number;
  /** Writes a step before a network call (batched); false when the attempt is no longer current. */
  writeStep(step: PartStep): Promise<boolean>;
  /**
   * Bounds the attempts calling networks at once. An attempt takes a slot right before its first
   * network call (its first step is written by then) and gives it back when it ends; without it,
   * attempts are not bounded here.
   */
  networkSlots?: Semaphore;
  /** Per network, calls in flight in this process (its `limits.concurrency`), besides networkSlots. */
  networkConcurrency?: Partial<Record<NetworkId, Semaphore>>;
  /** Per network, the quota of each account (admission.ts); a network without one is not held back. */
  accountQuotas?: AccountQuotas;
  /** Admits a destination to its account's quota (required with accountQuotas). */
  admit?: Admit;
}

/** How one attempt ended, with the last container the network accepted that is not on record yet. */
export interface AttemptResult {
  outcome: Outcome;
  confirm?: ConfirmedPart;
}

/** A newer attempt took the target over: this one stops and records nothing. */
export class Superseded extends Error {}

/** Publishes `claim`; throws Superseded when the attempt lost its target. Never throws anything else. */
export async function publishClaim(deps: EngineDeps, claim: Claim): Promise<AttemptResult> {
  const run = new Attempt(deps, claim);
  try {
    return { outcome: await run.publish(), confirm: run.unconfirmed };
  } catch (error) {
    if (error instanceof Superseded) throw error;
    return { outcome: toOutcome(deps, claim, error, run.calling), confirm: run.unconfirmed };
  } finally {
    run.leaveNetwork();
    await run.disposeMedia();
  }
}

class Attempt {
  private readonly deps: EngineDeps;
  private readonly claim: Claim;
  /** A container the network accepted; written with the next step or with the outcome. */
  unconfirmed: ConfirmedPart | undefined;
  /** The container whose publishPart is running (the adapter makes its publishing call last). */
  calling: number | undefined;
  /** The previous attempt ended asking to wait (PublishWait): no crash and no retry came after it. */
  private readonly resumingWait: boolean;
  /** This attempt holds one of deps.networkSlots. */
  private holdsSlot = false;
  /** This attempt refreshed the account's token (or tried to): it does not again. */
  private refreshed = false;
  /** Media the adapter opened: disposed of (temporary files removed) when the attempt ends. */
  private readonly opened: MediaSource[] = [];

  constructor(deps: EngineDeps, claim: Claim) {
    this.deps = deps;
    this.claim = claim;
    this.resumingWait = claim.afterWait;
  }

  async publish(): Promise<Outcome> {
    const { deps, claim } = this;
    const adapter = deps.adapters[claim.account.network];
    if (!adapter) throw new PublishError('permanent', `${claim.account.network}: publishing to this network is not available yet in this Crier version`);
    if (claim.unreadable) {
      throw new PublishError('permanent', `${claim.account.network}: the account's stored credentials cannot be opened (${claim.unreadable}); reconnect it and create a new post`);
    }
    if (!claim.accountActive) {
      throw new PublishError('permanent', `${claim.account.network}: the account @${claim.account.username} is disconnected (its token expired or was revoked); reconnect it and create a new post`);
    }
    await this.admitted();
    const containers = claim.processMedia && deps.prepareMedia
      ? await deps.prepareMedia({ orgId: claim.orgId, network: claim.account.network, block: claim.block, containers: claim.containers })
      : claim.containers;
    // Parts exist only if an earlier attempt ran (a crash, a retry, a wait); a first attempt skips the query.
    const resumed = claim.attemptCount > 1 || claim.interrupted || claim.checkpoint !== undefined;
    const expiring = claim.tokenExpiresAt !== null && claim.tokenExpiresAt.getTime() < Date.now() + TOKEN_MARGIN_MS;
    const account = expiring ? await this.refreshedAhead(claim.account) : claim.account;
    try {
      return await this.publishWith(adapter, account, containers, resumed);
    } catch (error) {
      // A token is refreshed once per attempt: one the network refuses right after its refresh stands refused.
      if (!(error instanceof PublishError) || error.kind !== 'auth' || this.refreshed) throw error;
      const refreshed = await this.refreshedAccount(account, error);
      return await this.publishWith(adapter, refreshed, containers, true);
    }
  }

  /**
   * Holds the destination back while its account's quota is spent (EngineDeps.accountQuotas): the
   * attempt ends as a wait, due when the window has room for it. A destination with a checkpoint was
   * admitted before its adapter stored it (and a wait here must not drop that checkpoint).
   */
  private async admitted(): Promise<void> {
    const { deps, claim } = this;
    const quota = deps.accountQuotas?.[claim.account.network];
    if (!quota || !deps.admit || claim.checkpoint !== undefined) return;
    const waitMs = await deps.admit({ accountId: claim.account.id, targetId: claim.targetId, containers: claim.containers.length, quota });
    if (waitMs <= ADMISSION_SLACK_MS) return;
    deps.logger.info({ targetId: claim.targetId, accountId: claim.account.id, waitMs: Math.round(waitMs) }, `the account's ${claim.account.network} quota (${quota.max} ${quota.counts} per ${quota.windowMs / 1000} s) is spent: the destination waits its turn`);
    throw new PublishWait(waitMs, null, `waiting for the account's ${claim.account.network} quota`);
  }

  /**
   * Waits for a slot of the destination's network, then for one of the process's (EngineDeps), once
   * per attempt. The network's first: one waiting its turn for a busy network holds no process slot.
   */
  private async enterNetwork(): Promise<void> {
    if (this.holdsSlot) return;
    await this.networkLimit()?.acquire();
    await this.deps.networkSlots?.acquire();
    this.holdsSlot = true;
  }

  /** deps.openMedia, keeping what it opened for disposeMedia. */
  private readonly openMedia: MediaOpener = async (url) => {
    const source = await this.deps.openMedia(url, this.deps.mediaCaps?.[this.claim.account.network]);
    this.opened.push(source);
    return source;
  };

  async disposeMedia(): Promise<void> {
    const results = await Promise.allSettled(this.opened.splice(0).map((source) => source.dispose?.()));
    for (const result of results) {
      if (result.status === 'rejected') this.deps.logger.warn({ err: result.reason, targetId: this.claim.targetId }, 'a downloaded media file could not be removed');
    }
  }

  leaveNetwork(): void {
    if (!this.holdsSlot) return;
    this.holdsSlot = false;
    this.deps.networkSlots?.release();
    this.networkLimit()?.release();
  }

  private networkLimit(): Semaphore | undefined {
    return this.deps.networkConcurrency?.[this.claim.account.network];
  }

  private async publishWith(adapter: NetworkAdapter, account: AccountCredentials, containers: ContainerInput[], resumed: boolean): Promise<Outcome> {
    const { deps, claim } = this;
    const prepared = await adapter.prepare({
      account,
      containers,
      block: claim.block,
      fetchMedia: deps.fetchMedia,
      openMedia: this.openMedia,
      userFetch: deps.userFetch,
      saveTokens: (tokens) => saveAccountSecrets(deps.db, deps.box, account.id, tokens),
      ledger: createLedger(deps.db, account.network),
      ownedElsewhere: (ids) => ownedElsewhere(deps.db, account.id, claim.targetId, ids),
      ...(claim.checkpoint ? { checkpoint: claim.checkpoint } : {}),
    });
    const parts = resumed ? await loadParts(deps.db, claim.targetId) : new Map<number, StoredPart>();
    let root: PartRef | undefined;
    const notes: string[] = [];
    for (let position = 0; position < claim.containers.length; position++) {
      const ref = await this.publishContainer(prepared, parts.get(position), position, root);
      if (position === 0) root = ref;
      if (ref.note) notes.push(ref.note);
    }
    return { status: 'published', platformPostId: root!.platformId, platformPostUrl: root!.url, ...(notes.length ? { note: notes.join('; ') } : {}) };
  }

  /**
   * The network refused the account's token. The refresher may not have replaced it yet (a worker was
   * down): refresh it once and hand back the account with the new token. Only when that cannot be done
   * or is refused too does the refusal stand, and the account is disconnected.
   */
  private async refreshedAccount(account: AccountCredentials, refusal: PublishError): Promise<AccountCredentials> {
    let refresh;
    try {
      refresh = await this.refreshToken(account);
    } catch (error) {
      throw new PublishError('retryable', `${refusal.message}; refreshing the token failed for now (${(error as Error).message})`);
    }
    if (refresh.outcome === 'unavailable') throw refusal;
    if (refresh.outcome === 'refused') throw new PublishError('auth', `${refusal.message}; refreshing the token was refused too (${refresh.reason})`);
    return (await loadAccount(this.deps.db, this.deps.box, account.id)).credentials;
  }

  /**
   * The token expires within TOKEN_MARGIN_MS and the refresher has not replaced it (it runs every
   * minute, and not while workers are down): refresh it before the first call rather than after the
   * network refuses it. A refresh that cannot be done now leaves the token as it is (the network's
   * answer decides); one the network refuses disconnects the account.
   */
  private async refreshedAhead(account: AccountCredentials): Promise<AccountCredentials> {
    let refresh;
    try {
      refresh = await this.refreshToken(account);
    } catch (error) {
      // Not a verdict (the network or the database is down): a refusal of the old token may still try.
      this.refreshed = false;
      this.deps.logger.warn({ err: error, accountId: account.id }, 'refreshing an expiring token before publishing failed; trying with it');
      return account;
    }
    if (refresh.outcome === 'refused') {
      throw new PublishError('auth', `${account.network}: the access token expired and refreshing it was refused (${refresh.reason}); reconnect the account`);
    }
    if (refresh.outcome === 'unavailable') return account;
    return (await loadAccount(this.deps.db, this.deps.box, account.id)).credentials;
  }

  private async refreshToken(account: AccountCredentials) {
    this.refreshed = true;
    return refreshTokenNow(this.deps.db, this.deps.box, { providers: this.deps.oauthProviders, managedApps: this.deps.managedApps ?? {} }, account);
  }

  private async publishContainer(prepared: PreparedPublish, stored: StoredPart | undefined, position: number, root: PartRef | undefined): Promise<PartRef> {
    if (stored?.status === 'published' && stored.ref) return stored.ref;
    let reservation: Record<string, unknown>;
    if (stored?.status === 'reserved' && this.resumingWait) {
      // The last attempt stopped here by asking to wait, not by crashing: the adapter resumes it from
      // its checkpoint, there is nothing to reconcile.
      reservation = stored.reservation;
      await this.step(undefined);
    } else if (stored?.status === 'reserved') {
      // An earlier attempt got as far as the call: ask the network before doing anything.
      await this.enterNetwork();
      const found = await prepared.reconcile(position, stored.reservation, root);
      if (found !== 'absent') {
        await this.step(undefined);
        await this.claimFound(position, found);
        this.unconfirmed = { position, ref: found };
        return found;
      }
      reservation = stored.reservation;
      await this.step(undefined);
    } else {
      reservation = prepared.reserve(position);
      await this.step({ position, reservation });
    }
    failpoint('after-attempt');
    await this.enterNetwork();
    this.calling = position;
    const ref = await prepared.publishPart(position, reservation, root);
    this.calling = undefined;
    failpoint('after-network');
    if (ref.adopted) await this.claimFound(position, ref);
    this.unconfirmed = { position, ref };
    return ref;
  }

  /**
   * A post this attempt did not create but found on the network (reconciling after a crash, or
   * adopted after a duplicate refusal) becomes this destination's only if no other destination owns
   * it: one network post, one owner (migration 024). A post found after a crash that another owns
   * leaves this container's fate unknown; an adopted one is the refusal it came from.
   */
  private async claimFound(position: number, ref: PartRef): Promise<void> {
    const { claim, deps } = this;
    if (await claimNetworkPost(deps.db, { orgId: claim.orgId, accountId: claim.account.id, targetId: claim.targetId, position, ref })) return;
    const network = claim.account.network;
    if (ref.adopted) {
      throw new PublishError('permanent', `${network}: the network refused container ${position + 1} as a duplicate of a post another destination owns (${ref.url})`);
    }
    throw new PublishError('unknown', `${network}: could not tell whether container ${position + 1} is already posted (the matching post found, ${ref.url}, belongs to another destination)`);
  }

  /** Before a network call: the previous container confirmed, this one reserved, the fence checked. */
  private async step(reserve: PartStep['reserve']): Promise<void> {
    const { claim } = this;
    const current = await this.deps.writeStep({
      orgId: claim.orgId,
      targetId: claim.targetId,
      attemptId: claim.attemptId,
      ...(this.unconfirmed ? { confirm: this.unconfirmed } : {}),
      ...(reserve ? { reserve } : {}),
    });
    this.unconfirmed = undefined;
    if (!current) throw new Superseded();
  }
}

/**
 * The network answered the call with a refusal that means "not done" (too many requests, a spent
 * quota): the container it was publishing is certainly not published. A 5xx or no answer may be.
 */
const REFUSED_UNDONE = new Set(['rate_limited', 'quota']);

/** Never sooner than this after a refusal, whatever the network stated (a bucket resetting in 0.1 s). */
const REFUSAL_FLOOR_MS = 1_000;
/** Without a stated time, each refusal waits twice as long as the one before, up to this. */
const REFUSAL_CEILING_MS = 3_600_000;

/**
 * The network refused the call and certainly did not carry it out (a 429, a spent quota). That is
 * no failed try of the post: it is not counted against maxAttempts (publishing_record_outcomes
 * counts it in the target's `refusals`) and the container goes again at the time the network
 * stated (a channel taking 5 messages per 2 s, 30 posts at once: before, the five left after five
 * rounds of doubling delays failed). The maxRefusals-th refusal fails the destination.
 */
function refusedOutcome(deps: EngineDeps, claim: Claim, failure: PublishError, calling: number | undefined): Outcome {
  const refusals = claim.refusals + 1;
  if (refusals >= deps.maxRefusals) {
    return { status: 'failed', error: `${failure.message} (gave up after the network refused ${refusals} times)` };
  }
  const delayMs = failure.retryAfterMs !== undefined
    ? Math.max(REFUSAL_FLOOR_MS, failure.retryAfterMs)
    : Math.min(REFUSAL_CEILING_MS, deps.retryBaseMs * 2 ** claim.refusals);
  // Refused before any container's call (a read, a token refresh): nothing was reserved, nothing done.
  return { status: 'retry', error: failure.message, delayMs, refused: true, ...(calling !== undefined ? { release: calling } : {}) };
}

function toOutcome(deps: EngineDeps, claim: Claim, error: unknown, calling: number | undefined): Outcome {
  if (error instanceof PublishWait) return { status: 'wait', checkpoint: error.checkpoint, delayMs: error.delayMs };
  // Anything that is not the network's answer (the database, a bug) is retried like a retryable error.
  const failure = error instanceof PublishError ? error : new PublishError('retryable', `internal error: ${(error as Error)?.message ?? String(error)}`);
  if (!(error instanceof PublishError)) deps.logger.error({ err: error, targetId: claim.targetId }, 'publishing failed on an internal error; retrying later');
  switch (failure.kind) {
    case 'permanent':
      return { status: 'failed', error: failure.message };
    case 'unknown':
      return { status: 'unknown', error: failure.message };
    case 'auth':
      return { status: 'failed', error: failure.message, deactivateAccount: true };
    case 'retryable': {
      if (failure.code && REFUSED_UNDONE.has(failure.code)) return refusedOutcome(deps, claim, failure, calling);
      // The network's refusals before this attempt were no tries of the post (refusedOutcome).
      const tried = claim.attemptCount - claim.refusals;
      if (tried >= deps.maxAttempts) {
        return { status: 'failed', error: `${failure.message} (gave up after ${tried} attempts)` };
      }
      const backoff = deps.retryBaseMs * 2 ** (tried - 1);
      return { status: 'retry', error: failure.message, delayMs: Math.max(backoff, failure.retryAfterMs ?? 0) };
    }
  }
}
