import pino from 'pino';
import { errorForLog } from './log-error.ts';

/** Paths and fields that never reach a log line. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.old_password',
  '*.new_password',
  '*.device_password',
  '*.code',
  '*.verification_token',
  '*.refresh',
  '*.refresh_token',
  '*.access_token',
];

/**
 * The process's logger. Every `err` it writes goes through errorForLog: message, stack and code, never the
 * SQL parameters or bodies an error carries. `destination` is for tests that read the lines.
 */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: (error: unknown) => errorForLog(error) },
  };
  return destination ? pino(options, destination) : pino(options);
}
