// The emulator's accounts: Facebook users (app-scoped ids), the Pages each manages (with the user's
// tasks on it), the Instagram professional account linked to a Page, and what each issued token
// stands for (a user or a Page, its expiry), next to the OAuthServer that issues and checks them.
import type { OAuthServer } from '../../shared/oauth.ts';

export interface FbUser {
  id: string;
  name: string;
  /** Pages the user has a role on, in the order /me/accounts lists them. */
  pageIds: string[];
}

export interface IgAccount {
  id: string;
  username: string;
  name: string;
  profilePictureUrl: string;
  followersCount: number;
  followsCount: number;
}

export interface FbPage {
  id: string;
  name: string;
  /** The Page's @username; undefined when it has none (Graph then omits the field). */
  username?: string;
  category: string;
  pictureUrl: string;
  /** What the user may do on the Page (CREATE_CONTENT, MODERATE, MANAGE, ANALYZE, ADVERTISE, MESSAGING). */
  tasks: string[];
  instagram?: IgAccount;
  followersCount: number;
  fanCount: number;
}

export interface AddPageInput {
  id?: string;
  name?: string;
  /** null: the Page has no username. */
  username?: string | null;
  category?: string;
  pictureUrl?: string;
  tasks?: string[];
  /** The linked Instagram professional account; null or absent: none. */
  instagram?: Partial<IgAccount> | null;
}

export interface AddUserInput {
  id?: string;
  name?: string;
  /** Default: one Page with a linked Instagram account, so a sandbox user can connect both networks. */
  pages?: AddPageInput[];
}

/** What a token stands for, recorded when it is issued; its times are the OAuthServer's. */
export interface TokenInfo {
  kind: 'user' | 'page';
  userId: string;
  pageId?: string;
  clientId: string;
  /** null: never expires (a Page token taken from a long-lived user token). */
  expiresAtMs: number | null;
  longLived: boolean;
  issuedAtMs: number;
}

export const ALL_TASKS = ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'];

export class FacebookStore {
  readonly users = new Map<string, FbUser>();
  readonly pages = new Map<string, FbPage>();
  readonly #tokens = new Map<string, Omit<TokenInfo, 'expiresAtMs' | 'issuedAtMs'>>();
  readonly oauth: OAuthServer;
  #seq = 0;

  constructor(oauth: OAuthServer) {
    this.oauth = oauth;
  }

  #next(): number {
    this.#seq += 1;
    return this.#seq;
  }

  addUser(input: AddUserInput = {}): FbUser {
    const n = this.#next();
    const user: FbUser = { id: input.id ?? String(10_000_000_000_000 + n), name: input.name ?? `Emulated User ${n}`, pageIds: [] };
    this.users.set(user.id, user);
    for (const page of input.pages ?? [{ instagram: {} }]) this.addPage(user.id, page);
    return user;
  }

  addPage(userId: string, input: AddPageInput = {}): FbPage {
    const user = this.users.get(userId);
    if (!user) throw new Error(`no user ${userId}`);
    const n = this.#next();
    const id = input.id ?? String(100_000_000_000_000 + n);
    const page: FbPage = {
      id,
      name: input.name ?? `Emulated Page ${n}`,
      username: input.username === null ? undefined : input.username ?? `emulatedpage${n}`,
      category: input.category ?? 'Product/service',
      pictureUrl: input.pictureUrl ?? `https://scontent.example.fbcdn.net/page/${id}.jpg`,
      tasks: input.tasks ?? ALL_TASKS,
      followersCount: 0,
      fanCount: 0,
    };
    if (input.instagram) {
      const m = this.#next();
      const igId = input.instagram.id ?? `1784140${String(m).padStart(10, '0')}`;
      page.instagram = {
        id: igId,
        username: input.instagram.username ?? `emulated_ig_${m}`,
        name: input.instagram.name ?? `Emulated IG ${m}`,
        profilePictureUrl: input.instagram.profilePictureUrl ?? `https://scontent.example.cdninstagram.com/ig/${igId}.jpg`,
        followersCount: input.instagram.followersCount ?? 0,
        followsCount: input.instagram.followsCount ?? 0,
      };
    }
    this.pages.set(id, page);
    user.pageIds.push(id);
    return page;
  }

  /** The Instagram account with this id and the Page it is linked to. */
  instagram(id: string): { page: FbPage; account: IgAccount } | undefined {
    for (const page of this.pages.values()) if (page.instagram?.id === id) return { page, account: page.instagram };
    return undefined;
  }

  /** Records what a token the OAuthServer issued stands for. */
  record(token: string, info: Omit<TokenInfo, 'expiresAtMs' | 'issuedAtMs'>): void {
    this.#tokens.set(token, info);
  }

  /** A copy of what the token stands for, with its times, or undefined for a token not recorded. */
  tokenInfo(token: string): TokenInfo | undefined {
    const info = this.#tokens.get(token);
    const check = this.oauth.checkAccess(token);
    if (!info || (!check.ok && check.reason === 'unknown')) return undefined;
    return { ...info, expiresAtMs: check.expiresAtMs, issuedAtMs: check.issuedAtMs };
  }
}
