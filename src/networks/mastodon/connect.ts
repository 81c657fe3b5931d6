// Connecting a Mastodon account with its instance's address and an access token the user made there
// (Preferences → Development → New application, scopes `read write`, or at least `read:accounts
// write:statuses write:media`). The token is the credential, stored encrypted. It is validated by GET
// /api/v1/accounts/verify_credentials (https://docs.joinmastodon.org/methods/accounts/#verify_credentials)
// through the SSRF guard (instance.ts). The account is `acct@domain`, its unique id `<domain>:<account
// id>` (an account id is unique only on its instance), with the instance's own domain (GET
// /api/v2/instance), else its address's host: a handle's domain is the instance's, not necessarily
// the host serving its API, and it stays the same when that address changes.
import { RequestError, validationError, type FieldIssue } from '../../core/errors.ts';
import { PublishError } from '../../core/errors.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import type { CredentialField, PasswordAccount, PasswordLoginInput } from '../contract.ts';
import { MastodonClient } from './client.ts';
import { configuredOrigin, instanceDomain, instanceFetch, instanceOrigin } from './instance.ts';

export const MASTODON_FIELDS: readonly CredentialField[] = [
  { name: 'instanceUrl', description: "the account's instance: its address (`https://mastodon.social`) or host name (`mastodon.social`)", maxLength: 300, secret: false },
  { name: 'accessToken', description: "an access token made in the instance's Preferences → Development, with the scopes `read write` (or `read:accounts write:statuses write:media`)", maxLength: 200, secret: true },
];

/** The part of a CredentialAccount (https://docs.joinmastodon.org/entities/Account/) Crier reads. */
interface CredentialAccount { id: string; username: string; acct: string }

export interface ConnectSettings {
  /** The operator's configured instance (CRIER_MASTODON_BASE_URL), called without the guard. */
  trusted: string | undefined;
  allowLoopback: boolean;
}

export async function connectAccount(settings: ConnectSettings, input: PasswordLoginInput): Promise<PasswordAccount> {
  const origin = instanceOrigin(input.instanceUrl ?? '');
  const token = (input.accessToken ?? '').trim();
  checkShapes(origin, token);
  return accountAt(settings, await configuredOrigin(origin!, settings.trusted), token);
}

/**
 * The account a token of the instance at `origin` is for, as Crier stores it: the same whichever way
 * the token came (typed by the user, or from the OAuth connect: oauth.ts). RequestError as connectAccount.
 */
export async function accountAt(settings: ConnectSettings, origin: string, token: string): Promise<PasswordAccount> {
  const client = new MastodonClient(origin, token, instanceFetch(origin, settings.trusted, userFetchFor(settings.allowLoopback)));
  const account = await verify(client);
  const domain = (await instanceDomain(client).catch(() => undefined)) ?? new URL(origin).host;
  return { username: `${account.acct.split('@')[0]}@${domain}`, networkUniqueId: `${domain}:${account.id}`, serviceUrl: origin, credential: token };
}

function checkShapes(origin: string | undefined, token: string): void {
  const details: FieldIssue[] = [];
  if (!origin) details.push({ field: 'instanceUrl', message: "must be the instance's address (https://mastodon.social) or its host name (mastodon.social)" });
  if (!/^[\x21-\x7e]{1,200}$/.test(token)) details.push({ field: 'accessToken', message: 'must be the access token as the instance shows it (printable characters, no spaces)' });
  if (details.length) throw validationError(details, 'The Mastodon credentials are not well formed');
}

async function verify(client: MastodonClient): Promise<CredentialAccount> {
  let answer;
  try {
    answer = await client.answer({ path: '/api/v1/accounts/verify_credentials' });
  } catch (error) {
    const message = (error as Error).message.replace(/^mastodon: /, '');
    if (error instanceof PublishError && error.kind === 'permanent') {
      throw refused(`The Mastodon instance's address is not allowed: ${message}`, 'mastodon_instance_refused', 'instanceUrl',
        `Crier does not call this address (${message}); only public https addresses are allowed`);
    }
    throw new RequestError(502, `The Mastodon instance could not be reached to validate the account: ${message}`, { code: 'network_unavailable' });
  }
  const body = answer.body as Partial<CredentialAccount> & { error?: string } | undefined;
  if (answer.status === 200 && typeof body?.id === 'string' && typeof body.acct === 'string') return body as CredentialAccount;
  const said = typeof body?.error === 'string' ? body.error : `HTTP ${answer.status}`;
  if (answer.status === 401 || answer.status === 403) {
    throw refused(`The Mastodon instance refused the access token: ${said}`, 'mastodon_token_refused', 'accessToken',
      `the instance does not accept this token (${said}): make one in Preferences → Development with the scopes read and write, and copy it again`);
  }
  if (answer.status === 429 || answer.status >= 500) throw new RequestError(502, `The Mastodon instance could not validate the account now: ${said}`, { code: 'network_unavailable' });
  throw refused(`The address does not answer as a Mastodon instance: ${said}`, 'mastodon_not_an_instance', 'instanceUrl',
    `GET /api/v1/accounts/verify_credentials answered ${said}: check that this is the address of a Mastodon instance`);
}

const refused = (message: string, code: string, field: string, detail: string) => new RequestError(400, message, { code, details: [{ field, message: detail }] });
