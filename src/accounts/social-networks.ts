// Social networks: an org's own OAuth app per network ("bring your own keys"). The client secret is
// sealed with the row id as associated data and never leaves this module except to call the network.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { validationError, type FieldIssue } from '../core/errors.ts';
import { encodeId } from '../core/ids.ts';
import { LOGIN_CONFIG_ID, type ManagedApps } from '../config.ts';
import { connectsThroughInstances, connectsWithPassword, loginConfigurationOf } from '../networks/registry.ts';
import type { NetworkInstances, OAuthApp } from '../networks/oauth.ts';
import { isNetworkId, NETWORKS } from '../networks/ids.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';

export interface SocialNetworkJson {
  id: string;
  network: string;
  client_key: string;
  /** The scopes connects ask for; null: the network's defaults (README, Connecting accounts). */
  scopes: string[] | null;
  /** The saved login configuration connects present instead of scopes (Meta's config_id); null: none. */
  config_id: string | null;
  createdAt: string;
}

export interface SocialNetworkInput {
  network?: unknown;
  client_key?: unknown;
  client_secret?: unknown;
  scopes?: unknown;
  config_id?: unknown;
}

interface NetworkRow {
  id: number;
  network: string;
  client_key: string;
  scopes: string[] | null;
  login_config_id: string | null;
  created_at: Date;
}

const COLUMNS = 'id, network, client_key, scopes, login_config_id, created_at';

const secretData = (id: number) => `social_networks:${id}:secret`;

function toJson(row: NetworkRow): SocialNetworkJson {
  return { id: encodeId(row.id), network: row.network, client_key: row.client_key, scopes: row.scopes, config_id: row.login_config_id, createdAt: row.created_at.toISOString() };
}

/** A scope is one token of the network's scope list: no separators (space, comma) or control characters. */
const SCOPE = /^[\x21-\x2B\x2D-\x7E]{1,200}$/;
const MAX_SCOPES = 50;

function checkScopes(scopes: unknown, issues: FieldIssue[]): string[] | null {
  if (scopes === undefined || scopes === null) return null;
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.length > MAX_SCOPES) {
    issues.push({ field: 'scopes', message: `must be a non-empty array of at most ${MAX_SCOPES} scope names, or null for the network's defaults` });
    return null;
  }
  scopes.forEach((scope, i) => {
    if (typeof scope !== 'string' || !SCOPE.test(scope)) issues.push({ field: `scopes[${i}]`, message: 'must be one scope name, without spaces or commas' });
  });
  return [...new Set(scopes as string[])];
}

/** A saved login configuration, where the network's dialog takes one (Network.connect.loginConfiguration). */
function checkConfigId(network: unknown, configId: unknown, issues: FieldIssue[]): string | null {
  if (configId === undefined || configId === null) return null;
  const takes = isNetworkId(network) && !connectsWithPassword(network) ? loginConfigurationOf(network) : undefined;
  if (isNetworkId(network) && !takes) issues.push({ field: 'config_id', message: `${network}'s login takes no saved configuration: leave config_id out` });
  else if (typeof configId !== 'string' || !LOGIN_CONFIG_ID.test(configId)) issues.push({ field: 'config_id', message: `must be ${takes ?? 'the configuration id'}: digits, from the app dashboard` });
  return typeof configId === 'string' ? configId : null;
}

function checkInput(input: SocialNetworkInput): { network: NetworkId; clientKey: string; clientSecret: string; scopes: string[] | null; configId: string | null } {
  const issues: FieldIssue[] = [];
  const { network, client_key: clientKey, client_secret: clientSecret } = input;
  const scopes = checkScopes(input.scopes, issues);
  const configId = checkConfigId(network, input.config_id, issues);
  // A network that connects with credentials (an app password, a token, a webhook URL) has no OAuth app to register.
  if (typeof network === 'string' && isNetworkId(network) && connectsThroughInstances(network)) {
    issues.push({ field: 'network', message: `${network} has no app to register: Crier registers its own on each instance on first use; start a connect with POST /v1/social-networks/${network}/auth-url {instance_url} (or connect with credentials: POST /v1/social-accounts/${network})` });
  } else if (typeof network !== 'string' || !isNetworkId(network) || connectsWithPassword(network)) {
    const oauth = NETWORKS.filter((id) => !connectsWithPassword(id));
    const password = NETWORKS.filter(connectsWithPassword);
    issues.push({ field: 'network', message: `must be a network that connects through OAuth: ${oauth.join(', ')} (${password.join(', ')} connect with their own credentials: POST /v1/social-accounts/<network>)` });
  }
  if (typeof clientKey !== 'string' || !clientKey.trim() || clientKey.length > 500) issues.push({ field: 'client_key', message: "must be your app's client id (1 to 500 characters)" });
  if (typeof clientSecret !== 'string' || !clientSecret.trim() || clientSecret.length > 1000) issues.push({ field: 'client_secret', message: "must be your app's client secret (1 to 1000 characters)" });
  if (issues.length) throw validationError(issues);
  return { network: network as NetworkId, clientKey: (clientKey as string).trim(), clientSecret: clientSecret as string, scopes, configId };
}

/** Registers the org's app for a network; registering the same network again replaces its credentials (same id). */
export async function saveSocialNetwork(db: Db, box: SecretBox, orgId: number, input: SocialNetworkInput): Promise<{ data: SocialNetworkJson; created: boolean }> {
  const { network, clientKey, clientSecret, scopes, configId } = checkInput(input);
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<NetworkRow & { created: boolean }>(
      `INSERT INTO social_networks (org_id, network, client_key, scopes, login_config_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (org_id, network) DO UPDATE SET client_key = EXCLUDED.client_key, scopes = EXCLUDED.scopes, login_config_id = EXCLUDED.login_config_id
       RETURNING ${COLUMNS}, (xmax = 0) AS created`,
      [orgId, network, clientKey, scopes, configId],
    );
    const row = rows[0]!;
    await tx.query('UPDATE social_networks SET client_secret_enc = $2 WHERE id = $1', [row.id, box.encrypt(clientSecret, secretData(row.id))]);
    return { data: toJson(row), created: row.created };
  });
}

export async function listSocialNetworks(db: Queryable, orgId: number): Promise<SocialNetworkJson[]> {
  const { rows } = await db.query<NetworkRow>(`SELECT ${COLUMNS} FROM social_networks WHERE org_id = $1 ORDER BY id`, [orgId]);
  return rows.map(toJson);
}

export async function getSocialNetwork(db: Queryable, orgId: number, id: number): Promise<SocialNetworkJson | undefined> {
  const { rows } = await db.query<NetworkRow>(`SELECT ${COLUMNS} FROM social_networks WHERE id = $1 AND org_id = $2`, [id, orgId]);
  return rows[0] && toJson(rows[0]);
}

/** Accounts connected through the app stay; they can no longer refresh their tokens until an app is registered again. */
export async function deleteSocialNetwork(db: Queryable, orgId: number, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM social_networks WHERE id = $1 AND org_id = $2', [id, orgId]);
  return (rowCount ?? 0) > 0;
}

/** An app a connect or a refresh goes through; `managed`: the operator's (CRIER_<NETWORK>_CLIENT_ID), not the org's. */
export interface ConnectApp {
  clientId: string;
  clientSecret: string;
  scopes: string[] | null;
  loginConfigId?: string;
  managed: boolean;
}

/**
 * The app a new connect goes through: the org's own when it registered one (bring your own key),
 * else the operator's managed app of the network when configured; undefined when neither exists.
 */
export async function connectApp(db: Queryable, box: SecretBox, orgId: number, network: NetworkId, managedApps: ManagedApps): Promise<ConnectApp | undefined> {
  const own = await appCredentials(db, box, orgId, network);
  if (own) return { ...own, managed: false };
  const managed = managedApps[network];
  return managed && { ...managed, scopes: null, managed: true };
}

/** The app an account was connected through (its token is refreshed with the same one). */
export async function accountApp(
  db: Queryable, box: SecretBox, account: { org_id: number; network: NetworkId; managed_app: boolean }, managedApps: ManagedApps,
): Promise<ConnectApp | undefined> {
  if (account.managed_app) {
    const managed = managedApps[account.network];
    return managed && { ...managed, scopes: null, managed: true };
  }
  const own = await appCredentials(db, box, account.org_id, account.network);
  return own && { ...own, managed: false };
}

/** The org's app credentials for a network, secret opened; undefined when none is registered. */
export async function appCredentials(db: Queryable, box: SecretBox, orgId: number, network: NetworkId): Promise<{ clientId: string; clientSecret: string; scopes: string[] | null; loginConfigId?: string } | undefined> {
  const { rows } = await db.query<{ id: number; client_key: string; client_secret_enc: Buffer | null; scopes: string[] | null; login_config_id: string | null }>(
    'SELECT id, client_key, client_secret_enc, scopes, login_config_id FROM social_networks WHERE org_id = $1 AND network = $2',
    [orgId, network],
  );
  const row = rows[0];
  if (!row?.client_secret_enc) return undefined;
  return {
    clientId: row.client_key, clientSecret: box.decrypt(row.client_secret_enc, secretData(row.id)), scopes: row.scopes,
    ...(row.login_config_id ? { loginConfigId: row.login_config_id } : {}),
  };
}

/** The key of Crier's own app on a server of a federated network, sealed into its secret. */
const instanceSecretData = (network: NetworkId, origin: string, redirectUri: string) => `network_instance_apps:${JSON.stringify([network, origin, redirectUri])}:secret`;

export interface InstanceAppKey {
  network: NetworkId;
  origin: string;
  redirectUri: string;
}

/** Crier's app on the server, registered with these scopes at least; undefined when none is stored. */
export async function storedInstanceApp(db: Queryable, box: SecretBox, key: InstanceAppKey, scopes: readonly string[] = []): Promise<(OAuthApp & { scopes: string[] }) | undefined> {
  const { rows } = await db.query<{ client_id: string; client_secret_enc: Buffer; scopes: string[] }>(
    'SELECT client_id, client_secret_enc, scopes FROM network_instance_apps WHERE network = $1 AND origin = $2 AND redirect_uri = $3 AND scopes @> $4::text[]',
    [key.network, key.origin, key.redirectUri, scopes],
  );
  const row = rows[0];
  return row && { clientId: row.client_id, clientSecret: box.decrypt(row.client_secret_enc, instanceSecretData(key.network, key.origin, key.redirectUri)), scopes: row.scopes };
}

/**
 * Crier's app on the server: the stored one, else one registered now and stored. Two first connects
 * racing may both register; the first stored wins and both use it (a registration that lost is left
 * unused on the server). An app registered with fewer scopes than Crier now asks for is replaced.
 */
export async function instanceApp(
  db: Queryable, box: SecretBox, instances: NetworkInstances, key: InstanceAppKey, input: { scopes: readonly string[]; name: string; website: string },
): Promise<OAuthApp & { scopes: string[] }> {
  const stored = await storedInstanceApp(db, box, key, input.scopes);
  if (stored) return stored;
  const app = await instances.register(key.origin, { redirectUri: key.redirectUri, scopes: input.scopes, name: input.name, website: input.website });
  await db.query(
    `INSERT INTO network_instance_apps (network, origin, redirect_uri, client_id, client_secret_enc, scopes) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (network, origin, redirect_uri) DO UPDATE SET client_id = EXCLUDED.client_id, client_secret_enc = EXCLUDED.client_secret_enc, scopes = EXCLUDED.scopes, created_at = now()
       WHERE NOT network_instance_apps.scopes @> EXCLUDED.scopes`,
    [key.network, key.origin, key.redirectUri, app.clientId, box.encrypt(app.clientSecret, instanceSecretData(key.network, key.origin, key.redirectUri)), [...app.scopes]],
  );
  return (await storedInstanceApp(db, box, key))!;
}

/** The server refused the stored app (invalid_client): forgotten, so the next connect registers again. */
export async function dropInstanceApp(db: Queryable, key: InstanceAppKey, clientId: string): Promise<void> {
  await db.query('DELETE FROM network_instance_apps WHERE network = $1 AND origin = $2 AND redirect_uri = $3 AND client_id = $4', [key.network, key.origin, key.redirectUri, clientId]);
}
