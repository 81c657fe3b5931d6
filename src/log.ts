// JSON logs (pino). Secrets never reach them: the Authorization header and token fields are redacted,
// and request URLs lose what authenticates them (an OAuth callback's code and state, a pending
// connect's session token, an upload URL's signature).
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: ['req.headers.authorization', '*.accessToken', '*.refreshToken', '*.appPassword', '*.client_secret'],
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

/** The URL as safe to log: credentials carried in the path or query are replaced. */
export function redactUrl(url: string): string {
  const [pathname = '', query] = url.split('?', 2);
  if (pathname.startsWith('/oauth/callback/') || pathname.startsWith('/media-uploads/')) return query === undefined ? pathname : `${pathname}?[redacted]`;
  const pending = /^\/v1\/social-accounts\/pending\/[^/]+/.exec(pathname);
  if (pending) return `/v1/social-accounts/pending/[session]${pathname.slice(pending[0].length)}${query === undefined ? '' : `?${query}`}`;
  return url;
}
