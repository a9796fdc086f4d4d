/** Picks the SMS gateway named by SMS_PROVIDER (config.ts has already checked its variables). */
import { AndroidSmsGateway } from '@propusk/sms/android';
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { SmsGateway } from '@propusk/sms/gateway';
import { SmsRuGateway } from '@propusk/sms/smsru';
import type { Config, GatewayConfig } from '../config/config.ts';

/** One gateway device commands may go through, with its send rate (engine/send/gateway-rate.ts). */
export interface GatewayEntry {
  /** Config name: the rate bucket's key and `device_commands.gateway`. */
  name: string;
  gateway: SmsGateway;
  ratePerMinute: number;
  burst: number;
}

function createOne(gateway: GatewayConfig, config: Config, print: (line: string) => void): SmsGateway {
  switch (gateway.provider) {
    case 'demo':
      return new DemoSmsGateway({ file: gateway.file ?? config.smsFile, print });
    case 'android':
      return new AndroidSmsGateway({
        url: gateway.url ?? '',
        login: gateway.login ?? '',
        password: gateway.password ?? '',
      });
    case 'smsru':
      return new SmsRuGateway({ apiId: gateway.apiId ?? '', url: gateway.url ?? config.SMSRU_URL });
  }
}

/**
 * The gateways of SMS_GATEWAYS (undefined when it is unset: the queue then uses `deps.sms` alone). `primary`
 * is SMS_PROVIDER's gateway, reused for a listed gateway of the same provider and file so that the demo's
 * simulated devices hear it.
 */
export function createSmsGateways(
  config: Config,
  primary: SmsGateway,
  print: (line: string) => void,
): GatewayEntry[] | undefined {
  if (config.SMS_GATEWAYS === undefined) return undefined;
  return config.smsGateways.map((gateway) => ({
    name: gateway.name,
    gateway:
      gateway.provider === 'demo' &&
      config.SMS_PROVIDER === 'demo' &&
      (gateway.file ?? config.smsFile) === config.smsFile
        ? primary
        : createOne(gateway, config, print),
    ratePerMinute: gateway.ratePerMinute,
    burst: gateway.burst,
  }));
}

export function createSmsGateway(config: Config, print: (line: string) => void): SmsGateway {
  switch (config.SMS_PROVIDER) {
    case 'demo':
      return new DemoSmsGateway({ file: config.smsFile, print });
    case 'android':
      return new AndroidSmsGateway({
        url: config.ANDROID_SMS_URL ?? '',
        login: config.ANDROID_SMS_LOGIN ?? '',
        password: config.ANDROID_SMS_PASSWORD ?? '',
      });
    case 'smsru':
      return new SmsRuGateway({ apiId: config.SMSRU_API_ID ?? '', url: config.SMSRU_URL });
  }
}
