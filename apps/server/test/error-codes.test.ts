/**
 * Every error carries a stable code, and the client has a Russian text for every code and every field message
 * the server can send (DESIGN.md section 2, issue 11). The codes and messages are collected from the source of
 * the server and of the request schemas, so a new one without a Russian text fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, isErrorCode } from '@propusk/contracts/error-codes';
import { ERROR_CODE_TEXTS, errorCodeText, fieldMessageText } from '@propusk/contracts/error-texts';
import { addPhoneBodySchema } from '@propusk/contracts/phones';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const cyrillic = /[А-Яа-яЁё]/;
const latinWord = /[A-Za-z]{3,}/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.includes('.test.') ? [full] : [];
  });
}

const serverSources = sourceFiles(path.join(root, 'apps/server/src'));
const contractSources = sourceFiles(path.join(root, 'packages/contracts/src')).filter(
  (file) => !/(messages|error-texts|error-codes|zod-messages)\.ts$/.test(file),
);

/** Codes passed to the error helpers, HttpError and errorBody anywhere in the server. */
function thrownCodes(): Set<string> {
  const codes = new Set<string>();
  const call =
    /\b(?:badRequest|unauthorized|forbidden|notFound|conflict|gone|tooManyRequests|errorBody)\(\s*'([a-z_]+)'|new HttpError\(\s*\d+,\s*'([a-z_]+)'/g;
  for (const file of serverSources) {
    for (const match of readFileSync(file, 'utf8').matchAll(call)) codes.add(match[1] ?? match[2] ?? '');
  }
  return codes;
}

/**
 * English sentences written in the schemas and the server: a capital letter, words, a full stop. Template
 * parts (`${slots}`) are filled with a number, as the server fills them. Comments, internal errors
 * (`new Error(…)`, answered as a bare 500) the OpenAPI descriptions and the metrics' help are not read by a user.
 */
function englishSentences(files: string[]): { text: string; file: string }[] {
  const literal = /(new Error\(\s*|(?:description|summary|help):\s*)?(['`])([A-Z][a-z][^'`\n]*?[.!])\2/g;
  const comment = /^\s*(\/\/|\/?\*)/;
  return files.flatMap((file) => {
    const code = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !comment.test(line))
      .join('\n');
    return [...code.matchAll(literal)]
      .filter((match) => match[1] === undefined)
      .map((match) => ({
        text: (match[3] ?? '').replace(/\$\{[^}]+\}/g, '5'),
        file: path.relative(root, file),
      }));
  });
}

/**
 * Texts that never reach a person as an error: success messages the client compares, a device command's
 * stored failure reason (the screens show the device's state by its code, never this text).
 */
const NOT_ERRORS = [
  /successfully\.$/,
  /^Verification code sent\.$/,
  /^Setting 5 queued\.$/,
  /^Demo only\b/,
  /^No reply from the device\.$/,
  /^The command could not be written\.$/,
  /^The device (refused the password|did not understand the command)\.$/,
  /^The device number belongs to a confirmed unit of another barrier\.$/,
];
const notShown = (file: string) =>
  /apps\/server\/src\/(cli|main|runtime)\.ts$|lib\/(data-dir-lock|logger|config)|config\/|scripts\/|db\//.test(
    file,
  );
/** Latin words a Russian text may hold: the names of things, as the spec writes them. */
const ALLOWED_LATIN = /\b(SMS|GSM|RTU\w*|DaData|ID)\b/g;

describe('error codes and their Russian texts', () => {
  it('has a Russian text for every code of the catalogue', () => {
    for (const code of Object.keys(ERROR_CODES)) {
      const text = errorCodeText({ code, detail: 'x' });
      expect(text, code).toMatch(cyrillic);
      expect(text?.replace(ALLOWED_LATIN, ''), code).not.toMatch(latinWord);
    }
    expect(Object.keys(ERROR_CODE_TEXTS).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('finds every code the server throws in the catalogue', () => {
    const codes = thrownCodes();
    // The collector itself works: these are thrown in well-known places.
    expect(codes).toContain('access_request_pending');
    expect(codes).toContain('schedule_interval_too_short');
    expect(codes).toContain('database_unavailable');
    expect(codes.size).toBeGreaterThan(50);
    for (const code of codes) expect(isErrorCode(code), code).toBe(true);
  });

  it('has a Russian text for every English field message of the schemas and the server', () => {
    const details = new Set<string>(Object.values(ERROR_CODES));
    const sentences = englishSentences([...contractSources, ...serverSources]);
    expect(sentences.length).toBeGreaterThan(80);
    const missing = sentences.filter(
      ({ text, file }) =>
        !details.has(text) &&
        !notShown(file) &&
        !NOT_ERRORS.some((pattern) => pattern.test(text)) &&
        !cyrillic.test(fieldMessageText(text) ?? ''),
    );
    expect(missing).toEqual([]);
  });

  it('gives the messages zod writes by itself as stable sentences with a Russian text', () => {
    const schema = z.object({ name: z.string().max(3), count: z.number().min(2), kind: z.enum(['a', 'b']) });
    const result = schema.safeParse({ name: 'long', count: 1, kind: 'c' });
    const messages = result.error?.issues.map((issue) => issue.message) ?? [];
    expect(messages).toEqual([
      'Ensure this field has at most 3 characters.',
      'Must be at least 2.',
      'Invalid choice.',
    ]);
    expect(messages.map(fieldMessageText)).toEqual([
      'Максимум символов: 3.',
      'Значение должно быть не меньше 2.',
      'Выберите одно из допустимых значений.',
    ]);
    const missing = z.object({ name: z.string() }).safeParse({});
    expect(missing.error?.issues[0]?.message).toBe('This field is required.');
    // A schema's own message still wins.
    const own = addPhoneBodySchema.safeParse({ phone: 'x', name: 'Гость', type: 'permanent' });
    expect(own.error?.issues.map((issue) => fieldMessageText(issue.message))).toContain(
      'Номер телефона должен быть в формате +7XXXXXXXXXX.',
    );
  });
});

describe('error bodies over HTTP', () => {
  let user: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    user = await createUser(t);
  });

  it('carry a catalogued code beside the English detail, whatever failed', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/nothing-here/', status: 404, code: 'not_found' },
      { method: 'GET' as const, url: '/api/users/me/', status: 401, code: 'not_authenticated' },
      {
        method: 'GET' as const,
        url: '/api/users/me/',
        status: 401,
        code: 'token_invalid',
        headers: { authorization: 'Bearer not-a-token' },
      },
      {
        method: 'GET' as const,
        url: '/api/barriers/999999/',
        status: 404,
        code: 'barrier_not_found',
        auth: true,
      },
      {
        method: 'GET' as const,
        url: '/api/admin/barriers/my/',
        status: 403,
        code: 'permission_denied',
        auth: true,
      },
    ];
    for (const call of calls) {
      const response = await t.request({
        method: call.method,
        url: call.url,
        token: call.auth ? user.token : undefined,
        headers: call.headers,
      });
      expect(response.statusCode, call.url).toBe(call.status);
      const body = response.json();
      expect(body.code, call.url).toBe(call.code);
      expect(body.detail, call.url).toBe(ERROR_CODES[call.code as keyof typeof ERROR_CODES] ?? body.detail);
      expect(errorCodeText(body), call.url).toMatch(cyrillic);
    }
  });

  it('answers malformed JSON with its code', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      payload: '{"full_name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'Malformed JSON body.', code: 'malformed_json' });
  });

  it('keeps a value the Russian text needs beside the code', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      payload: { phone: user.phone, mode: 'login' },
    });
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      payload: { phone: user.phone, mode: 'login' },
    });
    expect(response.statusCode).toBe(201);
    expect(again.statusCode).toBe(429);
    const body = again.json();
    expect(body.code).toBe('code_already_sent');
    expect(body.retry_after).toBeGreaterThan(0);
    expect(errorCodeText(body)).toBe('Код уже был отправлен. Попробуйте позже.');
  });
});
