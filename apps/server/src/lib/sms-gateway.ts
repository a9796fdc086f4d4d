/** Picks the SMS gateway named by SMS_PROVIDER. */
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { SmsGateway } from '@propusk/sms/gateway';
import type { Config } from '../config/config.ts';

export function createSmsGateway(config: Config, print: (line: string) => void): SmsGateway {
  switch (config.SMS_PROVIDER) {
    case 'demo':
      return new DemoSmsGateway({ file: config.smsFile, print });
    default:
      throw new Error(`SMS provider ${config.SMS_PROVIDER} is not available yet.`);
  }
}
