// The OAuth server every network emulator shares: registered apps, the signed-in user who consents
// at once, single-use authorization codes, access and refresh tokens with configurable lifetimes and
// rotation, and switches to revoke or expire them. It knows nothing of HTTP shapes: each network's
// routes parse requests and write bodies and errors exactly as that network does.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import type { FaultQueue, FaultSpec } from './faults.ts';
import type { RunningServer } from './http.ts';

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
  /**
   * Without rotation, the refresh answer repeats the presented refresh token with what is left of its
   * lifetime (LinkedIn, TikTok's older variant, Reddit as recorded in 2021) instead of carrying none
   * (Google, Reddit today). Default false.
   */
  echoRefresh?: boolean;
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
  /** Redeeming the code also issues a refresh token. */
  withRefresh: boolean;
  issuedAtMs: number;
}

interface AccessRecord {
  userId: string;
  clientId: string;
  scopes: string[];
  issuedAtMs: number;
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

/** 'used_code': the code was redeemed before (whatever the outcome then); 'unknown_code': never issued. */
export type CodeProblem = 'unknown_code' | 'used_code' | 'expired_code' | 'client_mismatch' | 'redirect_mismatch' | 'verifier_mismatch';

/** What is known of an issued access token, valid or not. */
export interface AccessGrant {
  userId: string;
  clientId: string;
  scopes: string[];
  /** When it was issued, on the emulator clock. */
  issuedAtMs: number;
  /** When it expires (or expired), on the emulator clock; null: never. */
  expiresAtMs: number | null;
}

export type AccessCheck =
  | ({ ok: true } & AccessGrant)
  | { ok: false; reason: 'unknown' }
  | ({ ok: false; reason: 'expired' | 'revoked' } & AccessGrant);

export class OAuthServer {
  readonly apps = new Map<string, OAuthEmulatorApp>();
  readonly clock: Clock;
  lifetimes: TokenLifetimes;
  #signedIn: string | undefined;
  #codes = new Map<string, CodeRecord>();
  #usedCodes = new Set<string>();
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

  /**
   * Issues a code for the signed-in user after the network's routes checked the request.
   * `withRefresh: false`: redeeming it gives no refresh token (Google without access_type=offline on a
   * consent screen, Reddit's duration=temporary). Default true.
   */
  issueCode(input: { clientId: string; redirectUri: string; scopes: string[]; codeChallenge?: string; codeChallengeMethod?: string; withRefresh?: boolean }): string | undefined {
    if (!this.#signedIn) return undefined;
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, { ...input, withRefresh: input.withRefresh ?? true, userId: this.#signedIn, issuedAtMs: this.clock.now() });
    return code;
  }

  /** Redeems a code (single-use whatever happens) and issues tokens, or says what was wrong. */
  redeemCode(input: { clientId: string; code: string; redirectUri: string | null; codeVerifier?: string | null }): IssuedToken | CodeProblem {
    const record = this.#codes.get(input.code);
    this.#codes.delete(input.code);
    this.#recordCall('authorization_code', input.clientId);
    if (!record) return this.#usedCodes.has(input.code) ? 'used_code' : 'unknown_code';
    this.#usedCodes.add(input.code);
    if (this.clock.now() - record.issuedAtMs > this.lifetimes.codeSecs * 1000) return 'expired_code';
    if (record.clientId !== input.clientId) return 'client_mismatch';
    if (input.redirectUri !== null && record.redirectUri !== input.redirectUri) return 'redirect_mismatch';
    if (record.codeChallenge) {
      const verifier = input.codeVerifier ?? '';
      const expected = record.codeChallengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (expected !== record.codeChallenge) return 'verifier_mismatch';
    }
    return this.issue(record.userId, record.clientId, record.scopes, record.withRefresh);
  }

  /**
   * Issues a pair directly (tests that set an account up without the browser flow). `accessSecs`
   * overrides the configured access token lifetime for this token (null: it does not expire).
   */
  issue(userId: string, clientId: string, scopes: string[], withRefresh = true, accessSecs: number | null = this.lifetimes.accessSecs): IssuedToken {
    const now = this.clock.now();
    const { refreshSecs } = this.lifetimes;
    const accessToken = `${this.#prefix}-at-${randomBytes(18).toString('base64url')}`;
    this.#access.set(accessToken, { userId, clientId, scopes, issuedAtMs: now, expiresAtMs: accessSecs === null ? null : now + accessSecs * 1000, revoked: false });
    let refreshToken: string | undefined;
    if (withRefresh && refreshSecs !== null) {
      refreshToken = `${this.#prefix}-rt-${randomBytes(18).toString('base64url')}`;
      this.#refresh.set(refreshToken, { userId, clientId, scopes, expiresAtMs: now + refreshSecs * 1000, used: false });
    }
    return { accessToken, refreshToken, expiresIn: accessSecs, refreshExpiresIn: refreshToken ? refreshSecs : null, userId, clientId, scopes };
  }

  /**
   * The refresh grant: a new access token; with rotation a new refresh token too and the old one dies.
   * Without rotation the answer carries no refresh token (Google, Reddit): the client keeps its own;
   * or, with `echoRefresh`, the presented one with what is left of its lifetime. After
   * omitNextRefreshToken() the answer carries none and the presented one keeps working.
   */
  refresh(clientId: string, refreshToken: string): IssuedToken | 'invalid' {
    this.#recordCall('refresh_token', clientId);
    const record = this.#refresh.get(refreshToken);
    if (!record || record.used || record.clientId !== clientId) return 'invalid';
    if (record.expiresAtMs !== null && this.clock.now() > record.expiresAtMs) return 'invalid';
    const omit = this.#omitNextRefreshToken;
    this.#omitNextRefreshToken = false;
    const rotate = this.lifetimes.rotateRefresh && !omit;
    if (rotate) record.used = true;
    const issued = this.issue(record.userId, record.clientId, record.scopes, rotate);
    if (rotate) return issued;
    if (!omit && this.lifetimes.echoRefresh) {
      const left = record.expiresAtMs === null ? null : Math.max(0, Math.floor((record.expiresAtMs - this.clock.now()) / 1000));
      return { ...issued, refreshToken, refreshExpiresIn: left };
    }
    return { ...issued, refreshToken: undefined, refreshExpiresIn: null };
  }

  /** When a refresh token expires (null: never), or undefined for one never issued. */
  refreshExpiresAt(refreshToken: string): number | null | undefined {
    return this.#refresh.get(refreshToken)?.expiresAtMs;
  }

  /**
   * Replaces an access token by a new one for the same grant, living `lifetimeSecs` (null: for ever):
   * Meta's long-lived exchange and refresh, and its Page tokens. With `grant`, the call is recorded in
   * tokenCalls under that grant (with the token's client, or '' for a token that is not valid).
   */
  exchangeAccess(accessToken: string, lifetimeSecs: number | null, grant?: string): IssuedToken | 'invalid' {
    const check = this.checkAccess(accessToken);
    if (grant !== undefined) this.#recordCall(grant, check.ok ? check.clientId : '');
    if (!check.ok) return 'invalid';
    return this.issue(check.userId, check.clientId, check.scopes, false, lifetimeSecs);
  }

  /** Whether an access token is good; what is known of it (times included) unless it is unknown. */
  checkAccess(token: string | null | undefined): AccessCheck {
    const record = this.#access.get(token ?? '');
    if (!record) return { ok: false, reason: 'unknown' };
    const grant: AccessGrant = { userId: record.userId, clientId: record.clientId, scopes: record.scopes, issuedAtMs: record.issuedAtMs, expiresAtMs: record.expiresAtMs };
    if (record.revoked) return { ok: false, reason: 'revoked', ...grant };
    if (record.expiresAtMs !== null && this.clock.now() >= record.expiresAtMs) return { ok: false, reason: 'expired', ...grant };
    return { ok: true, ...grant };
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

  #recordCall(grant: string, clientId: string): void {
    this.tokenCalls.push({ grant, clientId, at: this.clock.now() });
  }
}

/** The test controls every OAuth network emulator offers; each emulator's handle extends it. */
export interface OAuthEmulatorControls {
  url: string;
  /** Move it forward to expire codes and tokens. */
  clock: Clock;
  oauth: OAuthServer;
  close(): Promise<void>;
  /** Registers an app: its id, secret and registered redirect URIs. */
  addApp(app: OAuthEmulatorApp): void;
  /** The user who consents on the authorize page (auto-consent); undefined: nobody is signed in, the page refuses. */
  signIn(userId: string | undefined): void;
  /** The user removed the app: every token of theirs stops working (the network's revoked-token answers). */
  revokeUser(userId: string): void;
  /** The next refresh answer carries no refresh token (no effect where the network has no refresh grant). */
  omitNextRefreshToken(): void;
  /** Answers the next matching request(s) with this status instead of handling them. */
  failNext(fault: FaultSpec): void;
}

/** The common controls of an emulator wired to its OAuthServer, listener and fault queue. */
export function oauthControls(oauth: OAuthServer, server: RunningServer, faults: FaultQueue): OAuthEmulatorControls {
  return {
    url: server.url,
    clock: oauth.clock,
    oauth,
    close: () => server.close(),
    addApp: (app) => oauth.addApp(structuredClone(app)),
    signIn: (userId) => oauth.signIn(userId),
    revokeUser: (userId) => oauth.revokeUser(userId),
    omitNextRefreshToken: () => oauth.omitNextRefreshToken(),
    failNext: (fault) => faults.add(fault),
  };
}

/** The tokenCalls control of the Meta-style emulators: the calls, optionally of one grant, as copies. */
export function tokenCallsOf(oauth: OAuthServer): (grant?: string) => { grant: string; clientId: string; at: number }[] {
  return (grant) => oauth.tokenCalls.filter((c) => grant === undefined || c.grant === grant).map((c) => ({ ...c }));
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
