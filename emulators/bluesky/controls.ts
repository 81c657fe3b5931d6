// What tests may do beyond XRPC: add accounts and records as their owners would from another app,
// expire or revoke sessions, move an account to another PDS, set bookmark counts, inject faults; and
// read-only copies of what the PDS holds (records, blobs) and of every call it answered.
import type { FaultQueue, FaultSpec } from '../shared/faults.ts';
import { commit, prepareWrite } from './repo.ts';
import type { AddAccountInput, StoredBlob, StoredRecord } from './state.ts';
import { isReply, type PdsWorld } from './xrpc.ts';

/** One XRPC call the emulator answered. */
export interface BlueskyCall {
  nsid: string;
  method: string;
  params: Record<string, unknown>;
  body: unknown;
  did: string | undefined;
  status: number;
}

export interface BlueskyControls {
  addAccount(input: AddAccountInput): { did: string; handle: string };
  /** Live records in creation order, optionally of one repo. */
  records(did?: string): StoredRecord[];
  blobs(did?: string): Array<Omit<StoredBlob, 'bytes'> & { did: string }>;
  /** Makes an access token answer 400 ExpiredToken from now on. */
  expireToken(accessJwt: string): void;
  /** Moves the account to another PDS: its DID document names `url` from the next session answer on. */
  setPdsEndpoint(did: string, url: string): void;
  /** Revokes every refresh token of the account: the next refreshSession answers ExpiredToken. */
  revokeSessions(did: string): void;
  failNext(fault: FaultSpec): void;
  /**
   * Writes a record into an account's repository as its owner would from another app (a reply or a
   * like from another user, a follow, a profile), validated like createRecord. Returns its uri and cid.
   */
  addRecord(did: string, collection: string, record: Record<string, unknown>): { uri: string; cid: string };
  /** How many people bookmarked a post (the AppView's bookmarkCount). */
  setBookmarks(uri: string, count: number): void;
  /** Every XRPC call, in order: method name, query parameters, JSON body, the caller's DID and the status answered. */
  calls(): BlueskyCall[];
}

export function blueskyControls(world: PdsWorld, calls: BlueskyCall[], faults: FaultQueue): BlueskyControls {
  const { store } = world;
  return {
    addAccount: (input) => {
      const account = store.addAccount(input);
      commit(world, account.did);
      return { did: account.did, handle: account.handle };
    },
    records: (did) => structuredClone(store.records.filter((r) => did === undefined || r.did === did)),
    blobs: (did) =>
      [...store.blobs.entries()]
        .filter(([owner]) => did === undefined || owner === did)
        .flatMap(([owner, blobs]) => [...blobs.values()].map(({ cid, mimeType, size }) => ({ did: owner, cid, mimeType, size }))),
    expireToken: (accessJwt) => store.expiredTokens.add(accessJwt),
    setPdsEndpoint: (did, url) => {
      const account = store.accounts.get(did);
      if (!account) throw new Error(`no account ${did}`);
      account.pdsEndpoint = url;
    },
    revokeSessions: (did) => {
      for (const [id, session] of store.refreshSessions) if (session.did === did) store.refreshSessions.delete(id);
    },
    failNext: (fault) => faults.add(fault),
    addRecord: (did, collection, record) => addRecord(world, did, collection, record),
    setBookmarks: (uri, count) => store.bookmarks.set(uri, count),
    calls: () => structuredClone(calls),
  };
}

/** A record written by its owner from another app: validated like createRecord, committed at once. */
function addRecord(world: PdsWorld, did: string, collection: string, record: Record<string, unknown>): { uri: string; cid: string } {
  const { store, clock } = world;
  if (!store.accounts.has(did)) throw new Error(`no account ${did}`);
  const prepared = prepareWrite(world, did, collection, record, undefined);
  if (isReply(prepared)) throw new Error(`invalid record: ${JSON.stringify(prepared.body)}`);
  const rkey = collection === 'app.bsky.actor.profile' ? 'self' : world.tids.next(clock.now());
  const uri = `at://${did}/${collection}/${rkey}`;
  const existing = store.getRecord(did, collection, rkey);
  if (existing) store.records.splice(store.records.indexOf(existing), 1);
  store.records.push({ uri, cid: prepared.cid, did, collection, rkey, value: prepared.value, indexedAt: clock.iso() });
  commit(world, did);
  return { uri, cid: prepared.cid };
}
