/**
 * The demo gateway: nothing leaves the machine. Each SMS is printed and appended to SMS_FILE as one JSON
 * line `{"to","text","at"}` (DESIGN.md section 1), with `"key"` when the sender gave an idempotency key.
 * Listeners (the device simulator) see every message.
 *
 * It deduplicates keys as the Android SMS Gateway does with a message `id` (a second message with the same
 * id is refused with 409 "Message with the same ID already exists"; the adapter reads that as "already
 * accepted"): a repeated key writes nothing, reaches no listener and answers `{ duplicate: true }`. The keys
 * it knows are read back from SMS_FILE, so a restarted process (a new gateway on the same file) still knows
 * what left before: the file plays the gateway's own memory, which a real gateway keeps outside our process.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingSms, SentSms, SmsGateway } from './gateway.ts';

export type DemoListener = (message: OutgoingSms, at: Date) => void;

/** An SMS the demo gateway wrote to SMS_FILE under a key. */
export interface DemoSentLine {
  to: string;
  text: string;
  at: string;
}

export class DemoSmsGateway implements SmsGateway {
  readonly name = 'demo';
  readonly deduplicatesKeys = true;
  private readonly listeners: DemoListener[] = [];
  /** Appends are chained so that lines never interleave (and a key is checked after the previous write). */
  private pending: Promise<unknown> = Promise.resolve();
  /** Keys already in SMS_FILE, read once at the first use. */
  private keys: Map<string, DemoSentLine> | null = null;
  /** SMS_FILE ended without a newline (a line cut by a killed process): the next line starts a new one. */
  private startsMidLine = false;

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

  private async loadKeys(): Promise<Map<string, DemoSentLine>> {
    if (this.keys) return this.keys;
    const keys = new Map<string, DemoSentLine>();
    if (existsSync(this.options.file)) {
      const content = await readFile(this.options.file, 'utf8');
      this.startsMidLine = content.length > 0 && !content.endsWith('\n');
      for (const line of content.split('\n')) {
        if (!line.includes('"key"')) continue;
        try {
          const parsed = JSON.parse(line) as { key?: unknown; to?: unknown; text?: unknown; at?: unknown };
          if (
            typeof parsed.key === 'string' &&
            typeof parsed.to === 'string' &&
            typeof parsed.text === 'string'
          )
            keys.set(parsed.key, { to: parsed.to, text: parsed.text, at: String(parsed.at ?? '') });
        } catch {
          // A line cut by a killed process: that message did not fully leave.
        }
      }
    }
    this.keys = keys;
    return keys;
  }

  /** The SMS that left under `key`, if one did (for the simulated devices after a restart). */
  async sentWithKey(key: string): Promise<DemoSentLine | null> {
    await this.pending;
    return (await this.loadKeys()).get(key) ?? null;
  }

  async send(message: OutgoingSms): Promise<SentSms> {
    const at = this.options.now?.() ?? new Date();
    const { key } = message;
    const line = JSON.stringify({
      to: message.to,
      text: message.text,
      at: at.toISOString(),
      ...(key === undefined ? {} : { key }),
    });
    const write = this.pending.then(async (): Promise<'written' | 'duplicate'> => {
      const keys = await this.loadKeys();
      if (key !== undefined && keys.has(key)) return 'duplicate';
      await mkdir(path.dirname(this.options.file), { recursive: true });
      await appendFile(this.options.file, `${this.startsMidLine ? '\n' : ''}${line}\n`, 'utf8');
      this.startsMidLine = false;
      if (key !== undefined) keys.set(key, { to: message.to, text: message.text, at: at.toISOString() });
      return 'written';
    });
    this.pending = write.catch(() => {});
    if ((await write) === 'duplicate') return { providerId: key, duplicate: true };
    this.options.print?.(`[SMS to ${message.to}] ${message.text}`);
    for (const listener of this.listeners) listener(message, at);
    return key === undefined ? {} : { providerId: key };
  }

  async balance() {
    return null;
  }
}
