import { type Config, totalSendRatePerMinute } from '../../config/config.ts';

/**
 * How long the gateways take to send `count` SMS at their configured rates together (SMS_RATE_PER_MINUTE, or
 * the sum over SMS_GATEWAYS), in whole minutes (rounded up; 0 when there is nothing to send). Bursts are left
 * out: an import is long enough for the steady rate to dominate.
 */
export function estimateSendMinutes(count: number, config: Pick<Config, 'smsGateways'>): number {
  if (count <= 0) return 0;
  return Math.ceil(count / totalSendRatePerMinute(config));
}
