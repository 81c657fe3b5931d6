// The PDS emulator's state: accounts and app passwords, refresh-token sessions,
// repositories of records, and uploaded blobs.
import { randomBytes } from 'node:crypto';

export interface AppPassword {
  name: string;
  password: string;
  /** Privileged app passwords may also reach DMs; the session scope says which one was used. */
  privileged?: boolean;
}

export interface AddAccountInput {
  handle: string;
  password: string;
  email?: string;
  /** Plain strings get generated names ("app-1", …). */
  appPasswords?: Array<string | AppPassword>;
  /** A fixed DID; by default a random did:plc. */
  did?: string;
  /** The `#atproto_pds` endpoint of its DID document; by default the emulator itself. */
  pdsEndpoint?: string;
}

export interface Account {
  did: string;
  handle: string;
  email?: string;
  password: string;
  appPasswords: AppPassword[];
  pdsEndpoint?: string;
}

export interface StoredRecord {
  uri: string;
  cid: string;
  did: string;
  collection: string;
  rkey: string;
  value: Record<string, unknown>;
  /** Emulator clock time of creation (ISO). */
  indexedAt: string;
}

export interface StoredBlob {
  cid: string;
  mimeType: string;
  size: number;
  bytes: Buffer;
}

export interface RefreshSession {
  did: string;
  scope: string;
  appPassword: string | null;
  /** After a rotation the old token stays usable for a grace period, then dies. */
  expiresAtMs: number;
}

const PLC_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export class PdsStore {
  readonly accounts = new Map<string, Account>();
  /** Every live record in creation order; updates replace in place, deletes remove. */
  readonly records: StoredRecord[] = [];
  readonly blobs = new Map<string, Map<string, StoredBlob>>();
  readonly refreshSessions = new Map<string, RefreshSession>();
  /** Access tokens a test expired early (their JWT `exp` still lies in the future). */
  readonly expiredTokens = new Set<string>();
  readonly revs = new Map<string, string>();
  /** Bookmark counts by post URI (bookmarks are private records the AppView only counts). */
  readonly bookmarks = new Map<string, number>();

  addAccount(input: AddAccountInput): Account {
    const handle = input.handle.toLowerCase();
    if ([...this.accounts.values()].some((a) => a.handle === handle)) throw new Error(`handle ${handle} is taken`);
    const did = input.did ?? `did:plc:${[...randomBytes(24)].map((b) => PLC_ALPHABET[b % 32]).join('')}`;
    const appPasswords = (input.appPasswords ?? []).map((p, i) =>
      typeof p === 'string' ? { name: `app-${i + 1}`, password: p } : p,
    );
    const account: Account = { did, handle, email: input.email, password: input.password, appPasswords, pdsEndpoint: input.pdsEndpoint };
    this.accounts.set(did, account);
    this.blobs.set(did, new Map());
    return account;
  }

  /** Resolves a DID, a handle or an email address to a local account. */
  findAccount(identifier: string): Account | undefined {
    const id = identifier.toLowerCase();
    if (id.startsWith('did:')) return this.accounts.get(identifier);
    return [...this.accounts.values()].find((a) => a.handle === id || a.email?.toLowerCase() === id);
  }

  getRecord(did: string, collection: string, rkey: string): StoredRecord | undefined {
    return this.records.find((r) => r.did === did && r.collection === collection && r.rkey === rkey);
  }

  getRecordByUri(uri: string): StoredRecord | undefined {
    return this.records.find((r) => r.uri === uri);
  }
}
