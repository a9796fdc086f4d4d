/**
 * Backup and restore (db/backup.ts) on the test database (PGlite, or a fresh PostgreSQL database per app when
 * DATABASE_URL is set): a database where every table holds rows, written and restored into a fresh one, row
 * for row; refusals (data present without --force, another schema version, a file that is not a whole
 * backup) that leave the database exactly as it was; the restored database works (tokens, sequences, the
 * outbox resumes sending).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { signAndroidWebhook } from '@propusk/sms/android';
import { sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BackupError,
  readBackupHeader,
  readSchemaVersion,
  readTables,
  restoreBackup,
  secretKeyId,
  writeBackup,
} from '../src/db/backup.ts';
import type { Database } from '../src/db/database.ts';
import * as schema from '../src/db/schema.ts';
import { handleDeviceReply } from '../src/engine/reply/index.ts';
import { dispatchNotifications } from '../src/modules/notifications/dispatch.ts';
import { createDeviceScene } from './device-harness.ts';
import { createBarrier, createUserWithAccess, makeKnownTo } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

const KEY_ID = secretKeyId('test-secret-key-that-is-long-enough-0123456789');

/** Every table's rows in PostgreSQL's own row text, in primary-key order: what "the same data" means here. */
async function snapshot(db: Database): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of await readTables(db)) {
    const order = table.primaryKey.map((column) => `"${column}"`).join(', ') || '1';
    const { rows } = (await db.execute(
      sql.raw(`select t::text as row from "${table.name}" t order by ${order}`),
    )) as unknown as { rows: { row: string }[] };
    result[table.name] = rows.map((row) => row.row);
  }
  return result;
}

/** Data in every table, made the way the product makes it, plus values that are hard to carry. */
async function seedEverything(t: TestApp): Promise<{ owner: TestUser; barrierId: number }> {
  const { h, owner, barrier, user } = await createDeviceScene(t);
  // A co-administrator (barrier_staff).
  const colleague = await createAdmin(t);
  await makeKnownTo(t, { id: barrier.id, owner }, colleague);
  const staffed = await t.request({
    method: 'POST',
    url: `/api/admin/barriers/${barrier.id}/staff/`,
    token: owner.token,
    payload: { phone: colleague.phone, role: 'operator' },
  });
  expect(staffed.statusCode, staffed.body).toBe(201);
  // Phones of every kind; their commands stay in the outbox (not sent yet).
  for (const payload of [
    { phone: '+79990000101', name: 'Гость', type: 'permanent' },
    {
      phone: '+79990000102',
      name: 'Курьер',
      type: 'temporary',
      start_time: '2026-11-22T10:00:00+03:00',
      end_time: '2026-11-22T18:00:00+03:00',
    },
    {
      phone: '+79990000103',
      name: 'Няня',
      type: 'schedule',
      schedule: { monday: [{ start_time: '08:00', end_time: '10:30' }] },
    },
  ]) {
    const added = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/phones/`,
      token: user.token,
      payload,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  // A pending request and an administrator's block.
  const other = await createBarrier(t, owner, { is_public: true });
  const blocked = await createUserWithAccess(t, other, 'Нарушитель');
  const block = await t.request({
    method: 'PATCH',
    url: `/api/admin/users/${blocked.id}/block/`,
    token: owner.token,
    payload: { reason: 'спам "в кавычках"' },
  });
  expect(block.statusCode, block.body).toBe(200);
  const asking = await createUser(t, { fullName: 'Просящий' });
  const asked = await t.request({
    method: 'POST',
    url: '/api/access_requests/',
    token: asking.token,
    payload: { user: asking.id, barrier: barrier.id },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  // The resident's consent to the operator's policy (privacy_consents, issue 28).
  const policy = await t.request({ method: 'GET', url: '/api/privacy/policy/' });
  const consented = await t.request({
    method: 'POST',
    url: '/api/users/me/consent/',
    token: user.token,
    payload: { policy_version: policy.json().version },
  });
  expect(consented.statusCode, consented.body).toBeLessThan(300);
  // A person who muted the owner's invitations (issue 40 item 4, invitation_mutes).
  const muting = await createUser(t, { fullName: 'Не беспокоить' });
  const invited = await t.request({
    method: 'POST',
    url: '/api/admin/access_requests/',
    token: owner.token,
    payload: { user: muting.id, barrier: barrier.id },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const muted = await t.request({
    method: 'POST',
    url: `/api/access_requests/${invited.json().id}/mute/`,
    token: muting.token,
  });
  expect(muted.statusCode, muted.body).toBe(204);
  // A conformance run of the unit against its model (issue 42, device_conformance_runs).
  const run = await t.request({
    method: 'POST',
    url: `/api/admin/barriers/${barrier.id}/conformance/`,
    token: owner.token,
    payload: {},
  });
  expect(run.statusCode, run.body).toBe(200);
  // His phone subscribed to Web Push, his choices, and an event told to the owner (issue 43).
  const subscribed = await t.request({
    method: 'POST',
    url: '/api/notifications/subscriptions/',
    token: user.token,
    payload: { endpoint: 'https://push.example.net/send/abc', keys: { p256dh: 'BNc', auth: 'YXV0aA' } },
  });
  expect(subscribed.statusCode, subscribed.body).toBe(201);
  const chosen = await t.request({
    method: 'PATCH',
    url: '/api/notifications/preferences/',
    token: user.token,
    payload: { quiet_hours: { from: 1320, to: 420 } },
  });
  expect(chosen.statusCode, chosen.body).toBe(200);
  // The owner, with no push, chose the SMS on power loss: the unit's alarm puts one in the SMS outbox.
  const powerSms = await t.request({
    method: 'PATCH',
    url: '/api/notifications/preferences/',
    token: owner.token,
    payload: { power_sms: true },
  });
  expect(powerSms.statusCode, powerSms.body).toBe(200);
  const alarm = await handleDeviceReply(t.deps, {
    from: barrier.device_phone,
    text: 'External Power Goes OFF',
  });
  expect(alarm.alarm).toEqual({ barrierId: barrier.id, kind: 'power_failure' });
  await dispatchNotifications(
    t.deps,
    async () => {},
    async () => {},
  );
  // A guest pass waiting for its guest (issue 14 part 5).
  const now = t.deps.clock.now();
  const pass = await t.request({
    method: 'POST',
    url: `/api/barriers/${barrier.id}/guest-passes/`,
    token: user.token,
    payload: { start: now.toISOString(), end: new Date(now.getTime() + 3 * 3600_000).toISOString() },
  });
  expect(pass.statusCode, pass.body).toBe(201);
  // An invitation waiting for a number without an account (issue 14 part 2).
  const byNumber = await t.request({
    method: 'POST',
    url: '/api/admin/phone_invitations/',
    token: owner.token,
    payload: { barrier: barrier.id, phone: '+79990000188' },
  });
  expect(byNumber.statusCode, byNumber.body).toBe(201);
  // A code sent and a wrong code tried.
  const code = await t.request({
    method: 'POST',
    url: '/api/auth/codes/',
    payload: { phone: '+79990000199', mode: 'login' },
  });
  expect(code.statusCode, code.body).toBe(201);
  const wrong = t.lastCode('+79990000199') === '000000' ? '111111' : '000000';
  await t.request({
    method: 'PATCH',
    url: '/api/auth/codes/verify/',
    payload: { phone: '+79990000199', code: wrong, verification_token: code.json().verification_token },
  });
  // An administrator's password step, a session refreshed twice (one token rotated out), a signed webhook.
  const step = await t.request({
    method: 'POST',
    url: '/api/auth/admin/password_verification/',
    payload: { phone: owner.phone, password: 'admin-password' },
  });
  expect(step.statusCode, step.body).toBe(200);
  let refreshToken = owner.refreshToken;
  for (let round = 0; round < 2; round++) {
    const refreshed = await t.request({
      method: 'POST',
      url: '/api/auth/token/refresh/',
      payload: { refresh: refreshToken },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    refreshToken = refreshed.json().refresh;
  }
  const webhook = JSON.stringify({
    event: 'sms:received',
    payload: { message: 'x', phoneNumber: '79990000778' },
  });
  const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
  const signed = await t.request({
    method: 'POST',
    url: '/api/sms/inbound/android/',
    headers: {
      'content-type': 'application/json',
      'x-timestamp': timestamp,
      'x-signature': signAndroidWebhook(t.config.INBOUND_SMS_TOKEN ?? '', webhook, timestamp),
    },
    payload: webhook,
  });
  expect(signed.statusCode, signed.body).toBe(200);
  // A model the owner defined for a unit no sheet covers (issue 42 item 4, device_models).
  const defined = await t.request({
    method: 'POST',
    url: '/api/admin/device-models/',
    token: owner.token,
    payload: {
      file: readFileSync(
        new URL('../../../docs/devices/examples/defined-model.json', import.meta.url),
        'utf8',
      ),
    },
  });
  expect(defined.statusCode, defined.body).toBe(200);
  // A device check reading, and an SMS that answered nothing.
  const check = await t.request({
    method: 'POST',
    url: `/api/admin/barriers/${other.id}/device-check/`,
    token: owner.token,
    payload: {},
  });
  expect(check.statusCode, check.body).toBe(201);
  await handleDeviceReply(t.deps, { from: '+79990000777', text: 'Привет\nвторая строка' });
  await h.deliverReplies();
  // An opening from the app and an emergency hold (issue 16).
  const opened = await t.request({
    method: 'POST',
    url: `/api/barriers/${barrier.id}/open/`,
    token: user.token,
  });
  expect(opened.statusCode, opened.body).toBe(201);
  const held = await t.request({
    method: 'POST',
    url: '/api/admin/emergency-holds/',
    token: owner.token,
    payload: { barrier_ids: [other.id], reason: 'Учения' },
  });
  expect(held.statusCode, held.body).toBe(201);
  // Values that a careless format would change: control characters, quotes, backslashes, emoji, a jsonb
  // null (not SQL NULL), microseconds, a far date.
  await t.deps.db.execute(sql`
    update barriers set additional_info = ${'строка 1\nстрока 2\t«кавычки» "двойные" \\ обратная, 🚧, \u2028конец'},
      device_profile = ${JSON.stringify({ numberForm: 'local', replies: { add: ['OK\\d+'] } })}::jsonb,
      updated_at = '2026-11-21 09:00:00.123456+00'
    where id = ${barrier.id}`);
  await t.deps.db.execute(sql`
    insert into actions (barrier_id, action_type, author, reason, old_value, new_value, created_at)
    values (${barrier.id}, 'barrier_setting', 'system', null, 'null'::jsonb, '{"a":[1,2.5,"x",null,true]}'::jsonb,
      '9999-12-31 23:59:59.999999+00')`);
  return { owner, barrierId: barrier.id };
}

const schemaTables = () =>
  Object.values(schema)
    .filter((value) => typeof value === 'object' && value !== null && Symbol.for('drizzle:Name') in value)
    .map((table) => getTableConfig(table as PgTable).name)
    .sort();

describe('backup and restore', () => {
  const source = useTestApp();
  const target = useTestApp();
  let directory: string;
  let file: string;
  let owner: TestUser;
  let barrierId: number;
  let original: Record<string, string[]>;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'propusk-backup-'));
    file = path.join(directory, 'propusk.ndjson.gz');
    ({ owner, barrierId } = await seedEverything(source));
    original = await snapshot(source.deps.db);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('the seed fills every table, and the backup covers every table of the schema', async () => {
    const empty = Object.entries(original).filter(([, rows]) => rows.length === 0);
    expect(empty.map(([name]) => name)).toEqual([]);
    expect(Object.keys(original).sort()).toEqual(schemaTables());
  });

  it('writes one gzip file: a header with the schema version, tables parents first, an end', async () => {
    const summary = await writeBackup(source.deps.db, {
      file,
      database: source.deps.databaseKind,
      secretKeyId: KEY_ID,
    });
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '');
    const { version } = await readSchemaVersion(source.deps.db);
    expect(version).toMatch(/^\d{4}_/);
    expect(header).toMatchObject({
      format: 'propusk-backup',
      format_version: 1,
      schema_version: version,
      database: source.deps.databaseKind,
      secret_key_id: KEY_ID,
    });
    const order = header.tables.map((table: { name: string }) => table.name);
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('barriers'));
    expect(order.indexOf('barriers')).toBeLessThan(order.indexOf('phones'));
    expect(order.indexOf('phones')).toBeLessThan(order.indexOf('device_commands'));
    expect(order.indexOf('device_commands')).toBeLessThan(order.indexOf('inbound_sms'));
    const total = Object.values(original).reduce((sum, rows) => sum + rows.length, 0);
    expect(summary.rows).toBe(total);
    expect(JSON.parse(lines.at(-1) ?? '')).toEqual({ end: true, rows: total });
    expect(lines).toHaveLength(1 + order.length + total + 1);
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('restores into a fresh database: every table row for row', async () => {
    const summary = await restoreBackup(target.deps.db, { file, force: false, secretKeyId: KEY_ID });
    expect(summary.otherSecretKey).toBe(false);
    expect(await snapshot(target.deps.db)).toEqual(original);
  });

  it('leaves a working database: tokens, sequences past the highest id, the outbox sending', async () => {
    const read = await target.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrierId}/`,
      token: owner.token,
    });
    expect(read.statusCode, read.body).toBe(200);
    const maxUserId = Math.max(...(original.users ?? []).map((row) => Number(row.slice(1).split(',')[0])));
    const newcomer = await createUser(target);
    expect(newcomer.id).toBe(maxUserId + 1);
    // The commands that waited in the source's outbox leave from the restored database.
    const { createDeviceHarness } = await import('./device-harness.ts');
    const h = createDeviceHarness(target);
    const device = (
      (await target.deps.db.execute(
        sql`select device_phone from barriers where id = ${barrierId}`,
      )) as unknown as {
        rows: { device_phone: string }[];
      }
    ).rows[0]?.device_phone as string;
    await h.run(barrierId);
    expect(h.smsTo(device).length).toBeGreaterThan(0);
    expect(h.smsTo(device).some((text) => text.includes('00079990000101'))).toBe(true);
  });

  it('refuses a database that holds data without --force, and changes nothing', async () => {
    const before = await snapshot(target.deps.db);
    const refused = restoreBackup(target.deps.db, { file, force: false, secretKeyId: KEY_ID });
    await expect(refused).rejects.toBeInstanceOf(BackupError);
    await expect(refused).rejects.toThrow(/уже есть данные .*users.*--force/);
    expect(await snapshot(target.deps.db)).toEqual(before);
  });

  it('with --force replaces everything there with the backup', async () => {
    await createUser(target, { fullName: 'Лишний' });
    await restoreBackup(target.deps.db, { file, force: true, secretKeyId: KEY_ID });
    expect(await snapshot(target.deps.db)).toEqual(original);
  });

  it('says when the backup was taken under another server key', async () => {
    const summary = await restoreBackup(target.deps.db, {
      file,
      force: true,
      secretKeyId: secretKeyId('other'),
    });
    expect(summary.otherSecretKey).toBe(true);
  });

  it('reads the header of a cut file without a late gzip error taking the process down', async () => {
    // Small files are read in one chunk: gunzip finds the cut after the header was handed over.
    const errors: unknown[] = [];
    const listener = (error: unknown) => errors.push(error);
    process.on('uncaughtException', listener);
    try {
      for (let index = 0; index < 30; index++) {
        const body = `${JSON.stringify({ format: 'propusk-backup', format_version: 1, schema_version: 'x', tables: [] })}\n${randomBytes(2000 + index * 300).toString('hex')}\n`;
        const zipped = gzipSync(body);
        const cut = path.join(directory, `header-${index}.gz`);
        writeFileSync(cut, zipped.subarray(0, Math.floor(zipped.length / 2)));
        // Either the header, or the cut told clearly: never an error nobody listens to.
        const outcome = await readBackupHeader(cut).then(
          (header) => header.schema_version,
          (error: unknown) => (error instanceof BackupError ? 'refused' : Promise.reject(error)),
        );
        expect(['x', 'refused']).toContain(outcome);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      process.off('uncaughtException', listener);
    }
    expect(errors).toEqual([]);
  });

  describe('a bad file is refused with a clear message, the database unchanged (even with --force)', () => {
    const lines = () => gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const write = (name: string, content: Buffer | string) => {
      const bad = path.join(directory, name);
      writeFileSync(bad, content);
      return bad;
    };
    const cases: [string, () => string, RegExp][] = [
      ['a missing file', () => path.join(directory, 'nowhere.gz'), /не найден/],
      [
        'a text file',
        () => write('plain.txt', 'hello\n'),
        /не является резервной копией Пропуска \(это не gzip/,
      ],
      [
        'gzip of something else',
        () => write('other.gz', gzipSync('{"hello":1}\n')),
        /не является резервной копией/,
      ],
      [
        'a gzip cut in the middle',
        () => write('cut.gz', readFileSync(file).subarray(0, Math.floor(readFileSync(file).length / 2))),
        /повреждён или обрезан/,
      ],
      [
        'lines cut before the end',
        () => write('short.gz', gzipSync(`${lines().slice(0, -3).join('\n')}\n`)),
        /обрезан|повреждён/,
      ],
      [
        'another schema version',
        () => {
          const all = lines();
          const header = JSON.parse(all[0] ?? '');
          header.schema_version = '0006_device_messages';
          return write('old.gz', gzipSync(`${[JSON.stringify(header), ...all.slice(1)].join('\n')}\n`));
        },
        /для схемы базы данных «0006_device_messages», а у этой базы данных схема «\d{4}_/,
      ],
      [
        'a row with a value the column cannot take',
        () => {
          const all = lines();
          // The last row of the last table: its first value (an integer id) made text.
          const index = all.length - 2;
          const row = JSON.parse(all[index] ?? '');
          row[0] = 'не число';
          all[index] = JSON.stringify(row);
          return write('value.gz', gzipSync(`${all.join('\n')}\n`));
        },
        /не записываются в базу данных .*база данных не изменена/,
      ],
      [
        'a row with a missing value',
        () => {
          const all = lines();
          const index = all.length - 2;
          all[index] = JSON.stringify(JSON.parse(all[index] ?? '').slice(1));
          return write('columns.gz', gzipSync(`${all.join('\n')}\n`));
        },
        /не совпадает со списком столбцов/,
      ],
    ];
    for (const [name, make, message] of cases) {
      it(name, async () => {
        const before = await snapshot(target.deps.db);
        const restored = restoreBackup(target.deps.db, { file: make(), force: true, secretKeyId: KEY_ID });
        await expect(restored).rejects.toBeInstanceOf(BackupError);
        await expect(restored).rejects.toThrow(message);
        expect(await snapshot(target.deps.db)).toEqual(before);
      });
    }
  });
});

/**
 * Issue 31 part 2: Node 24's `readline` ends a line at U+2028 and U+2029, which JSON keeps raw inside strings,
 * so a restore cut such a row in two and refused a valid backup. Every Unicode line break, in every text
 * column of every table, must come back exactly.
 */
describe('every Unicode line break in every text column survives a backup and a restore', () => {
  const BREAKS = '[\u2028|\u2029|\u0085|\u000b|\u000c|\u000d|\r\n|\n]';
  const source = useTestApp();
  const target = useTestApp();
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'propusk-breaks-'));
    await seedEverything(source);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('writes them into each text column that can hold them, then restores them row for row', async () => {
    const written: string[] = [];
    const refused: string[] = [];
    for (const table of await readTables(source.deps.db)) {
      for (const column of table.columns) {
        const varchar = /^character varying\((\d+)\)$/.exec(column.type);
        if (column.type !== 'text' && !varchar) continue;
        // Copies that triggers keep of another table's text (barrier_access.search_name from users): they get
        // the breaks through the column they copy.
        if (column.name.startsWith('search_')) continue;
        const keep = varchar ? Math.max(0, Number(varchar[1]) - BREAKS.length) : 1_000_000;
        const name = `${table.name}.${column.name}`;
        try {
          // Its own transaction: a column whose checks refuse the text (a phone number's format) stays as it was.
          const changed = await source.deps.db.transaction(async (tx) => {
            const result = (await tx.execute(
              sql.raw(
                `update "${table.name}" set "${column.name}" = left("${column.name}", ${keep}) || '${BREAKS}' where "${column.name}" is not null`,
              ),
            )) as unknown as { rowCount?: number; affectedRows?: number };
            return result.rowCount ?? result.affectedRows ?? 0;
          });
          if (changed > 0) written.push(name);
        } catch {
          refused.push(name);
        }
      }
    }
    // The text columns that the product fills freely (names, reasons, messages, addresses) took them.
    expect(written).toEqual(
      expect.arrayContaining([
        'users.full_name',
        'barriers.address',
        'barriers.additional_info',
        'phones.name',
        'device_messages.text',
        'actions.reason',
        'guest_passes.note',
        'inbound_sms.text',
      ]),
    );
    const before = await snapshot(source.deps.db);
    const file = path.join(directory, 'breaks.ndjson.gz');
    await writeBackup(source.deps.db, { file, database: source.deps.databaseKind, secretKeyId: KEY_ID });
    // Raw in the file (JSON does not escape them): the reader itself must not split there.
    const raw = gunzipSync(readFileSync(file)).toString('utf8');
    expect(raw).toContain('\u2028|\u2029|\u0085');
    await restoreBackup(target.deps.db, { file, force: false, secretKeyId: KEY_ID });
    expect(await snapshot(target.deps.db)).toEqual(before);
  });
});
