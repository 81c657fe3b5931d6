// JSON logs (pino). Secrets never reach them: the Authorization header and token fields are redacted,
// and request URLs lose what authenticates them: a pending connect's session token (in a path, or as
// ?session= on the dashboard's page), and the value of every query parameter named like a credential
// (an API key sent as ?api_key=, an OAuth callback's code and state, an upload URL's signature).
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: ['req.headers.authorization', '*.accessToken', '*.refreshToken', '*.appPassword', '*.botToken', '*.webhookUrl', '*.client_secret'],
    serializers: { req: serializeRequest },
  };
  return destination ? pino(options, destination) : pino(options);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

function serializeRequest(req: LoggedRequest) {
  return { method: req.method, url: req.url && redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/**
 * The one rule for query parameters whose value is a credential, matched anywhere in the name:
 * api_key, access_token, client_secret, code, state, signature or sig, password or pwd, auth, a
 * pending connect's session (the dashboard's page is loaded with ?session=), jwt, bearer, credential.
 */
const CREDENTIAL_PARAM = /key|token|secret|code|state|sig|password|pwd|auth|session|jwt|bearer|credential/i;

/** The URL as safe to log: a pending connect's session token (in the path) and credential query values are replaced. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const pathname = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? undefined : url.slice(mark + 1);
  const pending = /^\/v1\/social-accounts\/pending\/[^/]+/.exec(pathname);
  const path = pending ? `/v1/social-accounts/pending/[session]${pathname.slice(pending[0].length)}` : pathname;
  return query === undefined ? path : `${path}?${redactQuery(query)}`;
}

/** Keeps every parameter's name (which route and options were used) and replaces credential values. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      return CREDENTIAL_PARAM.test(decodeName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
