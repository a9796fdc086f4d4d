import type { Config } from '../../config/config.ts';

/**
 * How long the SMS gateway takes to send `count` SMS at SMS_RATE_PER_MINUTE, in whole minutes (rounded up; 0
 * when there is nothing to send). The one place that knows the rate, so that per-gateway rates replace it here.
 */
export function estimateSendMinutes(count: number, config: Pick<Config, 'SMS_RATE_PER_MINUTE'>): number {
  if (count <= 0) return 0;
  return Math.ceil(count / config.SMS_RATE_PER_MINUTE);
}
