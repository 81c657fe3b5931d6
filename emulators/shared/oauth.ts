// The OAuth server every network emulator shares: registered apps, the signed-in user who consents
// at once, single-use authorization codes, access and refresh tokens with configurable lifetimes and
// rotation, and switches to revoke or expire them. It knows nothing of HTTP shapes: each network's
// routes parse requests and write bodies and errors exactly as that network does.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';

export interface OAuthEmulatorApp {
  clientId: string;
  clientSecret: string;
  /** Redirect URIs registered with the app; the authorize page and the code grant check them exactly. */
  redirectUris: string[];
}

export interface TokenLifetimes {
  /** Access token lifetime in seconds; null: it does not expire (Vimeo, Facebook Page tokens). */
  accessSecs: number | null;
  /** Refresh token lifetime in seconds; null: none is issued. */
  refreshSecs: number | null;
  /** A refresh returns a new refresh token and the old one stops working (X, TikTok, Pinterest). */
  rotateRefresh: boolean;
  /** Authorization codes expire after this (X: 30 s; most networks: 10 min). */
  codeSecs: number;
}

export interface IssuedToken {
  accessToken: string;
  /** Absent when the network issues none (or the emulator was told to send none). */
  refreshToken?: string;
  /** Seconds the access token lives, or null. */
  expiresIn: number | null;
  refreshExpiresIn: number | null;
  userId: string;
  clientId: string;
  scopes: string[];
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  codeChallenge?: string;
  codeChallengeMethod?: string;
  issuedAtMs: number;
}

interface AccessRecord {
  userId: string;
  clientId: string;
  scopes: string[];
  expiresAtMs: number | null;
  revoked: boolean;
}

interface RefreshRecord {
  userId: string;
  clientId: string;
  scopes: string[];
  expiresAtMs: number | null;
  used: boolean;
}

export type CodeProblem = 'unknown_code' | 'expired_code' | 'client_mismatch' | 'redirect_mismatch' | 'verifier_mismatch';
export type AccessCheck = { ok: true; userId: string; scopes: string[]; clientId: string } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

export class OAuthServer {
  readonly apps = new Map<string, OAuthEmulatorApp>();
  readonly clock: Clock;
  lifetimes: TokenLifetimes;
  #signedIn: string | undefined;
  #codes = new Map<string, CodeRecord>();
  #access = new Map<string, AccessRecord>();
  #refresh = new Map<string, RefreshRecord>();
  #omitNextRefreshToken = false;
  #prefix: string;
  /** Every token call, in order: tests read which grants a client used. */
  readonly tokenCalls: { grant: string; clientId: string; at: number }[] = [];

  constructor(clock: Clock, lifetimes: TokenLifetimes, tokenPrefix: string) {
    this.clock = clock;
    this.lifetimes = lifetimes;
    this.#prefix = tokenPrefix;
  }

  addApp(app: OAuthEmulatorApp): void {
    this.apps.set(app.clientId, app);
  }

  /** The user who consents on the authorize page (auto-consent). */
  signIn(userId: string | undefined): void {
    this.#signedIn = userId;
  }

  get signedInUser(): string | undefined {
    return this.#signedIn;
  }

  /** The app's credentials, or 'invalid' for a known id with a wrong secret, or undefined. */
  checkClient(clientId: string | null | undefined, clientSecret: string | null | undefined): OAuthEmulatorApp | 'invalid' | undefined {
    const app = this.apps.get(clientId ?? '');
    if (!app) return undefined;
    return app.clientSecret === clientSecret ? app : 'invalid';
  }

  /** Issues a code for the signed-in user after the network's routes checked the request. */
  issueCode(input: { clientId: string; redirectUri: string; scopes: string[]; codeChallenge?: string; codeChallengeMethod?: string }): string | undefined {
    if (!this.#signedIn) return undefined;
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, { ...input, userId: this.#signedIn, issuedAtMs: this.clock.now() });
    return code;
  }

  /** Redeems a code (single-use whatever happens) and issues tokens, or says what was wrong. */
  redeemCode(input: { clientId: string; code: string; redirectUri: string | null; codeVerifier?: string | null }): IssuedToken | CodeProblem {
    const record = this.#codes.get(input.code);
    this.#codes.delete(input.code);
    this.tokenCalls.push({ grant: 'authorization_code', clientId: input.clientId, at: this.clock.now() });
    if (!record) return 'unknown_code';
    if (this.clock.now() - record.issuedAtMs > this.lifetimes.codeSecs * 1000) return 'expired_code';
    if (record.clientId !== input.clientId) return 'client_mismatch';
    if (input.redirectUri !== null && record.redirectUri !== input.redirectUri) return 'redirect_mismatch';
    if (record.codeChallenge) {
      const verifier = input.codeVerifier ?? '';
      const expected = record.codeChallengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (expected !== record.codeChallenge) return 'verifier_mismatch';
    }
    return this.issue(record.userId, record.clientId, record.scopes, true);
  }

  /** Issues a pair directly (tests that set an account up without the browser flow). */
  issue(userId: string, clientId: string, scopes: string[], withRefresh = true): IssuedToken {
    const now = this.clock.now();
    const { accessSecs, refreshSecs } = this.lifetimes;
    const accessToken = `${this.#prefix}-at-${randomBytes(18).toString('base64url')}`;
    this.#access.set(accessToken, { userId, clientId, scopes, expiresAtMs: accessSecs === null ? null : now + accessSecs * 1000, revoked: false });
    let refreshToken: string | undefined;
    if (withRefresh && refreshSecs !== null) {
      refreshToken = `${this.#prefix}-rt-${randomBytes(18).toString('base64url')}`;
      this.#refresh.set(refreshToken, { userId, clientId, scopes, expiresAtMs: now + refreshSecs * 1000, used: false });
    }
    return { accessToken, refreshToken, expiresIn: accessSecs, refreshExpiresIn: refreshToken ? refreshSecs : null, userId, clientId, scopes };
  }

  /**
   * The refresh grant: a new access token; with rotation a new refresh token too and the old one dies.
   * Without rotation the answer carries no refresh token (Google, Reddit): the client keeps its own.
   */
  refresh(clientId: string, refreshToken: string): IssuedToken | 'invalid' {
    this.tokenCalls.push({ grant: 'refresh_token', clientId, at: this.clock.now() });
    const record = this.#refresh.get(refreshToken);
    if (!record || record.used || record.clientId !== clientId) return 'invalid';
    if (record.expiresAtMs !== null && this.clock.now() > record.expiresAtMs) return 'invalid';
    const rotate = this.lifetimes.rotateRefresh && !this.#omitNextRefreshToken;
    const omit = this.#omitNextRefreshToken;
    this.#omitNextRefreshToken = false;
    // An answer without a new refresh token leaves the presented one working (the client keeps it).
    if (rotate) record.used = true;
    const issued = this.issue(record.userId, record.clientId, record.scopes, rotate);
    if (!rotate || omit) return { ...issued, refreshToken: undefined, refreshExpiresIn: null };
    return issued;
  }

  /** Replaces an access token by a new one for the same grant (Meta's long-lived exchange and refresh). */
  exchangeAccess(accessToken: string, lifetimeSecs: number | null): IssuedToken | 'invalid' {
    const check = this.checkAccess(accessToken);
    if (!check.ok) return 'invalid';
    const saved = this.lifetimes.accessSecs;
    this.lifetimes = { ...this.lifetimes, accessSecs: lifetimeSecs };
    try {
      return this.issue(check.userId, check.clientId, check.scopes, false);
    } finally {
      this.lifetimes = { ...this.lifetimes, accessSecs: saved };
    }
  }

  checkAccess(token: string | null | undefined): AccessCheck {
    const record = this.#access.get(token ?? '');
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.revoked) return { ok: false, reason: 'revoked' };
    if (record.expiresAtMs !== null && this.clock.now() >= record.expiresAtMs) return { ok: false, reason: 'expired' };
    return { ok: true, userId: record.userId, scopes: record.scopes, clientId: record.clientId };
  }

  /** Revokes an access or refresh token (the user removed the app, or the app revoked it). */
  revoke(token: string): void {
    const access = this.#access.get(token);
    if (access) access.revoked = true;
    const refresh = this.#refresh.get(token);
    if (refresh) refresh.used = true;
  }

  /** Revokes every token of a user: what "the user removed the app" looks like to the client. */
  revokeUser(userId: string): void {
    for (const record of this.#access.values()) if (record.userId === userId) record.revoked = true;
    for (const record of this.#refresh.values()) if (record.userId === userId) record.used = true;
  }

  /** The next refresh answers without a refresh token, as some networks do. */
  omitNextRefreshToken(): void {
    this.#omitNextRefreshToken = true;
  }
}

/** `Authorization: Basic base64(id:secret)` → {id, secret}; ids and secrets may be URL-encoded (RFC 6749 §2.3.1). */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

/** The 302 back to the client's redirect URI with the given parameters and the state. */
export function redirectBack(redirectUri: string, params: Record<string, string>, state: string | undefined): { status: number; headers: Record<string, string> } {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set('state', state);
  return { status: 302, headers: { location: url.toString() } };
}
