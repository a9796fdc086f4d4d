/**
 * The demo gateway: nothing leaves the machine. Each SMS is printed and appended to SMS_FILE as one JSON
 * line `{"to","text","at"}` (DESIGN.md section 1). Listeners (the device simulator) see every message.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingSms, SentSms, SmsGateway } from './gateway.ts';

export type DemoListener = (message: OutgoingSms, at: Date) => void;

export class DemoSmsGateway implements SmsGateway {
  readonly name = 'demo';
  private readonly listeners: DemoListener[] = [];
  /** Appends are chained so that lines never interleave. */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly options: {
      file: string;
      print?: (line: string) => void;
      now?: () => Date;
    },
  ) {}

  onSend(listener: DemoListener): void {
    this.listeners.push(listener);
  }

  async send(message: OutgoingSms): Promise<SentSms> {
    const at = this.options.now?.() ?? new Date();
    const line = JSON.stringify({ to: message.to, text: message.text, at: at.toISOString() });
    const write = this.pending.then(async () => {
      await mkdir(path.dirname(this.options.file), { recursive: true });
      await appendFile(this.options.file, `${line}\n`, 'utf8');
    });
    this.pending = write.catch(() => {});
    await write;
    this.options.print?.(`[SMS to ${message.to}] ${message.text}`);
    for (const listener of this.listeners) listener(message, at);
    return {};
  }

  async balance() {
    return null;
  }
}
