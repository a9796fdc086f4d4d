/** Reading codes the way a person would: from the SMS the demo gateway wrote to SMS_FILE. */
import { readFileSync } from 'node:fs';
import { E2E } from './environment';

interface SmsLine {
  to: string;
  text: string;
  at: string;
}

export function readSms(): SmsLine[] {
  try {
    return readFileSync(E2E.smsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SmsLine);
  } catch {
    return [];
  }
}

export function smsCount(phone: string): number {
  return readSms().filter((line) => line.to === phone).length;
}

/** Waits for an SMS to `phone` beyond the first `after` ones and returns the 6-digit code in it. */
export async function waitForCode(phone: string, after: number, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const messages = readSms().filter((line) => line.to === phone);
    if (messages.length > after) {
      const code = messages.at(-1)?.text.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No code SMS to ${phone}`);
}
