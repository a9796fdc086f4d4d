import pino from 'pino';
import { LOG_REDACT_PATHS } from '../app.ts';
import { errorForLog } from './log-error.ts';

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
