import { describe, expect, it } from 'vitest';
import { withoutSecrets } from './log-privacy.ts';

describe('withoutSecrets: the word after a password’s name', () => {
  it('is hidden whatever separates it from the name, and the rest is kept', () => {
    expect(withoutSecrets('login failed, password: hunter2x; retry')).toBe(
      'login failed, password: [hidden]; retry',
    );
    expect(withoutSecrets('{"pwd":"abc-def","user":"x"}')).toBe('{"pwd":"[hidden]","user":"x"}');
    expect(withoutSecrets('Неверный пароль qwerty, попробуйте ещё')).toBe(
      'Неверный пароль [hidden], попробуйте ещё',
    );
    expect(withoutSecrets('секрета=xyz;пароля = abc')).toBe('секрета=[hidden];пароля = [hidden]');
    expect(withoutSecrets("passwd='s3cr3t' PASSWORD=Top")).toBe("passwd='[hidden]' PASSWORD=[hidden]");
  });

  it('leaves words that only begin like a name, and a name with nothing after it', () => {
    expect(withoutSecrets('passport photo, secretary desk')).toBe('passport photo, secretary desk');
    expect(withoutSecrets('no password')).toBe('no password');
    expect(withoutSecrets('password: ,')).toBe('password: ,');
  });

  it('reads a line of repeated names in linear time (the shape the ReDoS check found)', () => {
    const line = `${"'sсекретаебкб".repeat(15_812)}',`;
    const started = performance.now();
    const cleaned = withoutSecrets(line);
    // A guard against a hang, not a speed check (V8 ran the one-pattern version fast too: 9 ms here).
    expect(performance.now() - started).toBeLessThan(2_000);
    // Every other «sсекретаебкб» is the word after the name before it.
    expect(cleaned.startsWith("'sсекретаебкб'[hidden]'sсекретаебкб'[hidden]")).toBe(true);
  });
});
