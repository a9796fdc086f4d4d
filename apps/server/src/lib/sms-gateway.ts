/** Picks the SMS gateway named by SMS_PROVIDER (config.ts has already checked its variables). */
import { AndroidSmsGateway } from '@propusk/sms/android';
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { SmsGateway } from '@propusk/sms/gateway';
import { SmsRuGateway } from '@propusk/sms/smsru';
import type { Config } from '../config/config.ts';

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
