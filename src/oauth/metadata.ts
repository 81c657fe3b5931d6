// Where a client learns how to obtain a token for POST /mcp: the protected resource's metadata (RFC
// 9728) names Crier itself as the authorization server, whose metadata (RFC 8414) lists its
// endpoints. Every URL is built on PUBLIC_BASE_URL, the address clients reach Crier at: the MCP
// client checks that the resource it is told about is the URL it connected to.

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;
export const AUTHORIZE_PATH = '/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const REVOKE_PATH = '/oauth/revoke';
/** The dashboard page where a signed-in user approves or denies (src/dashboard/web/consent.js). */
export const CONSENT_PAGE = '/#/consent';

export interface OAuthUrls {
  /** The authorization server's identifier: Crier's base URL. */
  issuer: string;
  /** The protected resource (RFC 8707's `resource`): the MCP endpoint. */
  resource: string;
  resourceMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
}

export function oauthUrls(publicBaseUrl: string): OAuthUrls {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    issuer: base,
    resource: base + MCP_PATH,
    resourceMetadata: base + RESOURCE_METADATA_PATH,
    authorize: base + AUTHORIZE_PATH,
    token: base + TOKEN_PATH,
    register: base + REGISTER_PATH,
    revoke: base + REVOKE_PATH,
  };
}

export function protectedResourceMetadata(urls: OAuthUrls) {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Crier MCP server',
  };
}

export function authorizationServerMetadata(urls: OAuthUrls) {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    revocation_endpoint_auth_methods_supported: ['none'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** Whether a client's `resource` names the MCP endpoint (compared as parsed URLs, a trailing slash aside). */
export function isOurResource(urls: OAuthUrls, resource: string): boolean {
  try {
    const normalise = (value: string) => new URL(value).href.replace(/\/+$/, '');
    return normalise(resource) === normalise(urls.resource);
  } catch {
    return false;
  }
}

/** The `WWW-Authenticate` challenge of a 401 from the MCP endpoint: where to start (RFC 9728 §5.1). */
export function bearerChallenge(resourceMetadataUrl: string, invalidToken: boolean): string {
  return `Bearer ${invalidToken ? 'error="invalid_token", ' : ''}resource_metadata="${resourceMetadataUrl}"`;
}
