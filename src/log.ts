// JSON logs (pino). Secrets never reach them: the Authorization header and token fields are redacted.
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    redact: ['req.headers.authorization', '*.accessToken', '*.refreshToken', '*.appPassword', '*.client_secret'],
  });
}
