// What the PDS route modules share: the XRPC method shape, the emulator state, session tokens
// and the bearer-token checks of the reference PDS's auth verifier.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import { isPlainObject, type Reply } from '../shared/http.ts';
import type { WindowLimiter } from '../shared/rate.ts';
import { authMissing, expiredToken, invalidToken } from './errors.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import type { Limits } from './validate/lexicon.ts';
import type { Account, PdsStore } from './state.ts';
import type { TidGenerator } from './tid.ts';

export const SCOPE = {
  access: 'com.atproto.access',
  appPass: 'com.atproto.appPass',
  appPassPrivileged: 'com.atproto.appPassPrivileged',
  refresh: 'com.atproto.refresh',
} as const;
const ACCESS_SCOPES: string[] = [SCOPE.access, SCOPE.appPass, SCOPE.appPassPrivileged];
export const ACCESS_TOKEN_SECS = 2 * 60 * 60;
export const REFRESH_TOKEN_SECS = 90 * 24 * 60 * 60;
/** A rotated refresh token keeps working this long, so concurrent refreshes don't log users out. */
export const REFRESH_GRACE_MS = 2 * 60 * 60 * 1000;

export interface Credentials {
  did: string;
  scope: string;
  token: string;
  /** The refresh token's id (jti), for refresh-authenticated methods. */
  tokenId?: string;
}

export interface XrpcCall {
  params: Record<string, string | undefined>;
  body: unknown;
  contentType: string;
  auth: Credentials | null;
}

export interface RateSpend {
  key: string;
  limit: number;
  windowMs: number;
  points: number;
}

export interface AuthedCall extends XrpcCall {
  auth: Credentials;
}

interface MethodBase<Call> {
  nsid: string;
  type: 'query' | 'procedure';
  /** Points spent before the handler runs (when rate limits are on). */
  rateLimits?(call: Call): RateSpend[];
  handler(call: Call): Reply | Promise<Reply>;
}

/** An XRPC method; `auth` says which token it takes, and authenticated handlers always get one. */
export type XrpcMethod =
  | (MethodBase<XrpcCall> & { auth: 'none' })
  | (MethodBase<AuthedCall> & { auth: 'access' | 'refresh' });

export interface PdsWorld {
  store: PdsStore;
  clock: Clock;
  tids: TidGenerator;
  secret: Buffer;
  serviceDid: string;
  handleDomains: string[];
  limits: Limits;
  limiter: WindowLimiter;
  rateLimits: boolean;
  /** The emulator's own address, known once it listens: the PDS endpoint of its accounts' DID documents. */
  url: string;
}

export function issueSession(world: PdsWorld, account: Account, scope: string, appPassword: string | null) {
  const iat = world.clock.nowSecs();
  const jti = randomBytes(32).toString('base64');
  const accessJwt = signJwt(
    { typ: 'at+jwt', alg: 'HS256' },
    { scope, aud: world.serviceDid, sub: account.did, iat, exp: iat + ACCESS_TOKEN_SECS },
    world.secret,
  );
  const refreshJwt = signJwt(
    { typ: 'refresh+jwt', alg: 'HS256' },
    { scope: SCOPE.refresh, aud: world.serviceDid, sub: account.did, jti, iat, exp: iat + REFRESH_TOKEN_SECS },
    world.secret,
  );
  world.store.refreshSessions.set(jti, { did: account.did, scope, appPassword, expiresAtMs: (iat + REFRESH_TOKEN_SECS) * 1000 });
  return { accessJwt, refreshJwt };
}

/** The reference PDS's bearer checks, with its error names and messages. */
export function authenticate(world: PdsWorld, kind: 'access' | 'refresh', header: string | undefined): Credentials | Reply {
  if (!header) return authMissing();
  const parts = header.split(' ');
  if (parts.length !== 2) return invalidToken('Malformed authorization header');
  const type = parts[0].toUpperCase();
  if (!['BASIC', 'BEARER', 'DPOP'].includes(type)) return invalidToken(`Unsupported authorization type: ${parts[0]}`);
  // Refresh methods only look for a Bearer token; access methods reject other schemes (DPoP,
  // i.e. atproto OAuth, is not emulated, so its tokens never verify).
  if (type !== 'BEARER' && kind === 'refresh') return authMissing();
  if (type !== 'BEARER') return invalidToken(type === 'DPOP' ? 'Token could not be verified' : 'Unexpected authorization type');
  const token = parts[1];
  const checked = verifyJwt(token, world.secret, world.serviceDid, world.clock.nowSecs());
  if (!checked.ok) return checked.expired ? expiredToken() : invalidToken();
  if (world.store.expiredTokens.has(token)) return expiredToken();
  const expectedTyp = kind === 'access' ? 'at+jwt' : 'refresh+jwt';
  if (checked.header.typ && checked.header.typ !== expectedTyp) return invalidToken('Invalid token type');
  const { sub, scope, jti } = checked.payload;
  if (typeof sub !== 'string' || !sub.startsWith('did:')) return invalidToken('Malformed token');
  const allowed = kind === 'access' ? ACCESS_SCOPES : [SCOPE.refresh];
  if (typeof scope !== 'string' || !allowed.includes(scope)) return invalidToken('Bad token scope');
  if (kind === 'refresh' && typeof jti !== 'string') {
    return { status: 401, body: { error: 'MissingTokenId', message: 'Unexpected missing refresh token id' } };
  }
  return { did: sub, scope, token, tokenId: typeof jti === 'string' ? jti : undefined };
}

export function isReply(value: unknown): value is Reply {
  return isPlainObject(value) && typeof value.status === 'number';
}
