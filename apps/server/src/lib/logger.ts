import pino from 'pino';
import { LOG_REDACT_PATHS } from '../app.ts';

export function createLogger(level: string) {
  return pino({ level, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } });
}
