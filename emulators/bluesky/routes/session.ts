// com.atproto.server.*: describeServer, createSession, refreshSession, getSession, deleteSession.
import { authRequired, expiredToken, invalidRequest } from '../errors.ts';
import type { Account } from '../state.ts';
import { inputObject, requireStrings } from '../validate/params.ts';
import { isReply, issueSession, REFRESH_GRACE_MS, SCOPE, type PdsWorld, type XrpcMethod } from '../xrpc.ts';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

/** The account fields every session-shaped response carries, with the account's DID document. */
function accountView(world: PdsWorld, account: Account) {
  return {
    handle: account.handle,
    did: account.did,
    didDoc: didDocument(world, account),
    ...(account.email ? { email: account.email } : {}),
    emailConfirmed: false,
    active: true,
  };
}

/**
 * What the PDS reads from the PLC directory and hands back: the handle, and the PDS that hosts the
 * account, which clients switch to. No verificationMethod: no signing key is emulated.
 */
function didDocument(world: PdsWorld, account: Account) {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: account.did,
    alsoKnownAs: [`at://${account.handle}`],
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: account.pdsEndpoint ?? world.url }],
  };
}

export function sessionMethods(world: PdsWorld): XrpcMethod[] {
  const { store } = world;
  return [
    {
      nsid: 'com.atproto.server.describeServer',
      type: 'query',
      auth: 'none',
      handler: () => ({
        status: 200,
        body: { did: world.serviceDid, availableUserDomains: world.handleDomains, inviteCodeRequired: false, links: {}, contact: {} },
      }),
    },
    {
      nsid: 'com.atproto.server.createSession',
      type: 'procedure',
      auth: 'none',
      // 30 logins per 5 minutes and 300 per day "per account" (rate-limits guide): the handle, the
      // email and the DID of one account share the allowance. An identifier that names no account
      // is counted by itself, so guessing at unknown names is limited too.
      rateLimits: (call) => {
        const body = inputObject(call);
        const identifier = isReply(body) ? '' : String(body.identifier ?? '');
        const key = `login:${store.findAccount(identifier)?.did ?? identifier.toLowerCase()}`;
        return [
          { key: `${key}:5m`, limit: 30, windowMs: 5 * MINUTE, points: 1 },
          { key: `${key}:1d`, limit: 300, windowMs: DAY, points: 1 },
        ];
      },
      handler: (call) => {
        const body = inputObject(call);
        if (isReply(body)) return body;
        const problem = requireStrings(body, ['identifier', 'password'], ['authFactorToken']);
        if (problem) return problem;
        const account = store.findAccount(body.identifier as string);
        const password = body.password as string;
        if (!account) return authRequired('Invalid identifier or password');
        let scope: string = SCOPE.access;
        let appPassword: string | null = null;
        if (account.password !== password) {
          const app = account.appPasswords.find((p) => p.password === password);
          if (!app) return authRequired('Invalid identifier or password');
          scope = app.privileged ? SCOPE.appPassPrivileged : SCOPE.appPass;
          appPassword = app.name;
        }
        return { status: 200, body: { ...issueSession(world, account, scope, appPassword), ...accountView(world, account) } };
      },
    },
    {
      nsid: 'com.atproto.server.refreshSession',
      type: 'procedure',
      auth: 'refresh',
      handler: ({ auth }) => {
        const tokenId = auth.tokenId ?? '';
        const session = store.refreshSessions.get(tokenId);
        const account = store.accounts.get(auth.did);
        if (!account) return invalidRequest(`Could not find user info for account: ${auth.did}`);
        if (!session || session.expiresAtMs <= world.clock.now()) {
          store.refreshSessions.delete(tokenId);
          return expiredToken('Token has been revoked');
        }
        session.expiresAtMs = Math.min(session.expiresAtMs, world.clock.now() + REFRESH_GRACE_MS);
        return { status: 200, body: { ...issueSession(world, account, session.scope, session.appPassword), ...accountView(world, account) } };
      },
    },
    {
      nsid: 'com.atproto.server.getSession',
      type: 'query',
      auth: 'access',
      handler: ({ auth }) => {
        const account = store.accounts.get(auth.did);
        if (!account) return invalidRequest(`Could not find user info for account: ${auth.did}`);
        return { status: 200, body: accountView(world, account) };
      },
    },
    {
      nsid: 'com.atproto.server.deleteSession',
      type: 'procedure',
      auth: 'refresh',
      handler: ({ auth }) => {
        store.refreshSessions.delete(auth.tokenId ?? '');
        return { status: 200 };
      },
    },
  ];
}
