// A claimed target, ready to publish: what the claim statement (queue.ts) returned, with the account's
// credentials opened. The claim already fenced out any earlier attempt: the attempt id is the target's
// current attempt, and only the current attempt may call the network or record a result.
import { openAccount } from '../accounts/session.ts';
import type { Queryable } from '../db/pool.ts';
import type { AccountCredentials } from '../core/account.ts';
import type { ContainerInput } from '../core/post.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import type { ClaimRow } from './queue.ts';

export interface Claim {
  attemptId: number;
  targetId: number;
  postId: number;
  orgId: number;
  attemptCount: number;
  /** Of the attempts before this one, those the network refused (429s, spent quotas): not counted against maxAttempts. */
  refusals: number;
  /** An earlier attempt never finished (a crash): its parts must be reconciled, not reposted. */
  interrupted: boolean;
  accountActive: boolean;
  account: AccountCredentials;
  /** When the account's access token expires, if it does (OAuth networks). */
  tokenExpiresAt: Date | null;
  /** Every account the post goes to, this one included. */
  postAccountIds: number[];
  block: Record<string, unknown> | undefined;
  containers: ContainerInput[];
  /** The post asked for processMedia: videos are fitted to the network before the adapter sees them. */
  processMedia: boolean;
  /** Where a network's waiting step asked to resume (finish.ts, `wait`); undefined on a fresh start. */
  checkpoint: Record<string, unknown> | undefined;
  /** The last attempt ended asking to wait: its checkpoint is where to go on. False after a retry or a crash. */
  afterWait: boolean;
  /** The account's stored secrets could not be opened (damaged, or sealed under another key). */
  unreadable?: string;
}


/** The claims of one claim statement; an account's secrets are opened once (see `openedAccounts`). */
export function claimsFromRows(box: SecretBox, rows: ClaimRow[]): Claim[] {
  return rows.map((row) => {
    const account = openedAccount(box, row);
    return claimFromRow(row, { ...account, account: { ...account.account } });
  });
}

/** What an account was opened from: a claim row that differs in any of it is opened again. */
type AccountRowFields = Pick<ClaimRow, 'org_id' | 'network' | 'username' | 'network_unique_id' | 'service_url' | 'access_token_enc' | 'refresh_token_enc' | 'credential_enc' | 'managed_app'>;

interface OpenedAccount {
  account: AccountCredentials;
  unreadable?: string;
  from: AccountRowFields;
}

/**
 * Accounts opened by earlier claims, per secret box and account id. Opening (AES-GCM, a key object
 * per secret) was a measured share of a worker's CPU per destination, and the same accounts come
 * back claim after claim. An entry is used only while the row holds the same sealed secrets and
 * fields, so a refreshed token or a renamed account is opened afresh. Bounded: cleared when full.
 */
const openedAccounts = new WeakMap<SecretBox, Map<number, OpenedAccount>>();
const MAX_OPENED_ACCOUNTS = 10_000;

function openedAccount(box: SecretBox, row: ClaimRow): OpenedAccount {
  let opened = openedAccounts.get(box);
  if (!opened) openedAccounts.set(box, (opened = new Map()));
  const known = opened.get(row.account_id);
  if (known && sameAccountRow(known.from, row)) return known;
  if (opened.size >= MAX_OPENED_ACCOUNTS) opened.clear();
  const { org_id, network, username, network_unique_id, service_url, access_token_enc, refresh_token_enc, credential_enc, managed_app } = row;
  const entry = { ...openRowAccount(box, row), from: { org_id, network, username, network_unique_id, service_url, access_token_enc, refresh_token_enc, credential_enc, managed_app } };
  opened.set(row.account_id, entry);
  return entry;
}

function sameAccountRow(a: AccountRowFields, b: AccountRowFields): boolean {
  return a.network === b.network && a.username === b.username && a.network_unique_id === b.network_unique_id && a.service_url === b.service_url &&
    a.org_id === b.org_id && a.managed_app === b.managed_app && sameBytes(a.access_token_enc, b.access_token_enc) && sameBytes(a.refresh_token_enc, b.refresh_token_enc) &&
    sameBytes(a.credential_enc, b.credential_enc);
}

const sameBytes = (a: Buffer | null, b: Buffer | null) => (a === null || b === null ? a === b : a.equals(b));

function openRowAccount(box: SecretBox, row: ClaimRow): { account: AccountCredentials; unreadable?: string } {
  const sealed = { ...row, id: row.account_id };
  try {
    return { account: openAccount(box, sealed) };
  } catch (error) {
    return { account: openAccount(box, { ...sealed, access_token_enc: null, refresh_token_enc: null, credential_enc: null }), unreadable: (error as Error).message };
  }
}

function claimFromRow(row: ClaimRow, { account, unreadable }: { account: AccountCredentials; unreadable?: string }): Claim {
  return {
    ...(unreadable ? { unreadable } : {}),
    attemptId: row.attempt_id,
    targetId: row.target_id,
    postId: row.post_id,
    orgId: row.org_id,
    attemptCount: row.attempt_count,
    refusals: row.refusals,
    interrupted: row.previous_attempt_id !== null,
    accountActive: row.is_active,
    account,
    tokenExpiresAt: row.token_expires_at,
    postAccountIds: row.post_account_ids.map(Number),
    block: row.network_options?.[account.network],
    containers: row.containers.map((c) => ({
      content: c.content,
      media: c.media.map((m) => (m.altText === null ? { url: m.url, filename: m.filename } : { url: m.url, filename: m.filename, altText: m.altText })),
    })),
    processMedia: row.process_media,
    checkpoint: row.checkpoint ?? undefined,
    afterWait: row.after_wait === true && row.previous_attempt_id === null,
  };
}
