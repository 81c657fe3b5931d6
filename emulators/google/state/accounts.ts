// The Google users the emulator knows: each may own a YouTube channel and manage Business Profile
// accounts with their locations. Ids look like Google's (numeric account and location ids, "UC…"
// channel ids); addUser() fills sensible defaults so a sandbox can call addUser({}).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';

export interface GoogleChannel {
  id: string;
  title: string;
  description: string;
  /** The handle, "@name". */
  customUrl: string;
  thumbnailUrl: string;
  publishedAt: string;
}

export interface PostalAddress {
  regionCode: string;
  languageCode?: string;
  postalCode?: string;
  administrativeArea?: string;
  locality?: string;
  addressLines?: string[];
}

export interface GoogleLocation {
  /** "locations/{id}" */
  name: string;
  title: string;
  languageCode: string;
  storeCode?: string;
  storefrontAddress?: PostalAddress;
  websiteUri?: string;
}

export type BusinessAccountType = 'PERSONAL' | 'LOCATION_GROUP' | 'USER_GROUP' | 'ORGANIZATION';

export interface GoogleBusinessAccount {
  /** "accounts/{id}" */
  name: string;
  accountName: string;
  type: BusinessAccountType;
  /** The signed-in user's role; absent on a PERSONAL account. */
  role?: 'PRIMARY_OWNER' | 'OWNER' | 'MANAGER' | 'SITE_MANAGER';
  verificationState: 'VERIFIED' | 'UNVERIFIED' | 'VERIFICATION_REQUESTED';
  vettedState: 'NOT_VETTED' | 'VETTED' | 'INVALID';
  ownerId: string;
  locations: GoogleLocation[];
}

export interface GoogleUser {
  /** The Google account id (the OpenID `sub`). */
  id: string;
  email: string;
  name: string;
  channel: GoogleChannel | null;
  businessAccounts: GoogleBusinessAccount[];
}

export interface AddLocationInput {
  title?: string;
  storeCode?: string;
  storefrontAddress?: PostalAddress;
  websiteUri?: string;
}

export interface AddBusinessAccountInput {
  accountName?: string;
  type?: BusinessAccountType;
  /** Defaults to one location named after the account; [] for none. */
  locations?: AddLocationInput[];
}

export interface AddUserInput {
  id?: string;
  email?: string;
  name?: string;
  /** The user's YouTube channel; null: the Google account has none. Defaults to one named after the user. */
  channel?: Partial<Omit<GoogleChannel, 'id'>> & { id?: string } | null;
  /** Business Profile accounts; defaults to a PERSONAL account with one location; [] for none. */
  businessAccounts?: AddBusinessAccountInput[];
}

export class GoogleStore {
  readonly users = new Map<string, GoogleUser>();
  readonly accounts = new Map<string, GoogleBusinessAccount>();
  #clock: Clock;
  #next = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  #numeric(base: bigint): string {
    this.#next += 1;
    return (base + BigInt(this.#next) * 7919n).toString();
  }

  addUser(input: AddUserInput = {}): GoogleUser {
    const id = input.id ?? this.#numeric(104_000_000_000_000_000_000n);
    const name = input.name ?? `Google User ${this.users.size + 1}`;
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '') || `user${this.users.size + 1}`;
    const user: GoogleUser = {
      id,
      email: input.email ?? `${slug}.${id.slice(-4)}@gmail.example`,
      name,
      channel: null,
      businessAccounts: [],
    };
    this.users.set(id, user);
    if (input.channel !== null) this.setChannel(id, input.channel ?? {});
    for (const account of input.businessAccounts ?? [{ accountName: name, type: 'PERSONAL' as const }]) this.addBusinessAccount(id, account);
    return user;
  }

  setChannel(userId: string, input: (Partial<Omit<GoogleChannel, 'id'>> & { id?: string }) | null): GoogleChannel | null {
    const user = this.#user(userId);
    if (input === null) {
      user.channel = null;
      return null;
    }
    const title = input.title ?? user.name;
    const id = input.id ?? `UC${randomBytes(16).toString('base64url').slice(0, 22)}`;
    user.channel = {
      id,
      title,
      description: input.description ?? '',
      customUrl: input.customUrl ?? `@${title.toLowerCase().replace(/[^a-z0-9._-]+/g, '') || id.toLowerCase()}`,
      thumbnailUrl: input.thumbnailUrl ?? `https://yt3.ggpht.example/${id}=s88-c-k-c0x00ffffff-no-rj`,
      publishedAt: input.publishedAt ?? new Date(this.#clock.now()).toISOString(),
    };
    return user.channel;
  }

  addBusinessAccount(userId: string, input: AddBusinessAccountInput = {}): GoogleBusinessAccount {
    const user = this.#user(userId);
    const type = input.type ?? 'LOCATION_GROUP';
    const account: GoogleBusinessAccount = {
      name: `accounts/${this.#numeric(100_000_000_000_000_000_000n)}`,
      accountName: input.accountName ?? (type === 'PERSONAL' ? user.name : `${user.name} Business ${user.businessAccounts.length + 1}`),
      type,
      ...(type === 'PERSONAL' ? {} : { role: 'PRIMARY_OWNER' as const }),
      verificationState: type === 'PERSONAL' ? 'UNVERIFIED' : 'VERIFIED',
      vettedState: 'NOT_VETTED',
      ownerId: userId,
      locations: [],
    };
    user.businessAccounts.push(account);
    this.accounts.set(account.name, account);
    for (const location of input.locations ?? [{ title: `${account.accountName} Shop` }]) this.addLocation(account.name, location);
    return account;
  }

  addLocation(accountName: string, input: AddLocationInput = {}): GoogleLocation {
    const account = this.accounts.get(accountName);
    if (!account) throw new Error(`unknown business account ${accountName}`);
    const location: GoogleLocation = {
      name: `locations/${this.#numeric(1_000_000_000_000_000_000n)}`,
      title: input.title ?? `${account.accountName} Location ${account.locations.length + 1}`,
      languageCode: 'en',
      ...(input.storeCode ? { storeCode: input.storeCode } : {}),
      storefrontAddress: input.storefrontAddress ?? { regionCode: 'US', languageCode: 'en', postalCode: '94043', administrativeArea: 'CA', locality: 'Mountain View', addressLines: [`${100 + account.locations.length} Example Street`] },
      ...(input.websiteUri ? { websiteUri: input.websiteUri } : {}),
    };
    account.locations.push(location);
    return location;
  }

  #user(userId: string): GoogleUser {
    const user = this.users.get(userId);
    if (!user) throw new Error(`unknown Google user ${userId}`);
    return user;
  }
}
