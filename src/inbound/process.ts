// One stored delivery, processed: the network parses it into items, and each item addressed to an
// account whose app signed the delivery becomes its events (comments: comments.ts; direct messages,
// for accounts connected with the messaging scope: conversations/inbound.ts). Items are idempotent
// one by one, so a delivery processed again after a crash or a failure emits only what it had not.
import type { Db } from '../db/pool.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { AccountSession } from '../networks/capabilities.ts';
import type { SecretBox } from '../security/crypto.ts';
import { receiveMessage } from '../conversations/inbound.ts';
import { inboundAccounts, type InboundAccount } from '../accounts/inbound-accounts.ts';
import { receiveComment } from './comments.ts';
import { storableCopy } from '../validation/json-input.ts';
import type { ClaimedDelivery } from './queue.ts';
import { accountSession } from '../accounts/session.ts';

export interface ProcessDeps {
  db: Db;
  box: SecretBox;
  networks: NetworkRegistry;
  userFetch: typeof fetch;
}

export async function processDelivery(deps: ProcessDeps, delivery: ClaimedDelivery): Promise<{ items: number }> {
  const capabilities = deps.networks.capabilities(delivery.network);
  if (!capabilities.inbound) return { items: 0 };
  // Text PostgreSQL cannot hold (a NUL in a comment) would fail the delivery on every retry.
  const items = capabilities.inbound.parse(delivery.request).map(storableCopy);
  const accounts = await inboundAccounts(deps.db, delivery.accountIds);
  for (const item of items) {
    for (const account of accounts.filter((a) => a.networkUniqueId === item.accountNetworkId)) {
      const session = sessionOnce(deps, account);
      if (item.kind === 'comment') await receiveComment({ db: deps.db, session, messages: capabilities.messages }, account, item);
      else if (account.messaging && capabilities.messages) await receiveMessage({ db: deps.db, session, messages: capabilities.messages }, account, item);
    }
  }
  return { items: items.length };
}

/** The account's session, opened on first use only (most items need no network call). */
function sessionOnce(deps: ProcessDeps, account: InboundAccount): () => Promise<AccountSession> {
  let opened: Promise<AccountSession> | undefined;
  return () => (opened ??= accountSession(deps.db, deps.box, account.id, deps.userFetch).then((s) => s.session));
}
