/**
 * The operator's command line (DESIGN.md section 1): `npm run cli -- <command> [options]`.
 * It opens the same database as the server (applying migrations) and calls the same service functions as the
 * API. On the embedded database it refuses while the server holds DATA_DIR.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { passwordSchema } from '@propusk/contracts/auth';
import { CLEAN_TEXT_MESSAGE, collapseSpaces, isCleanText } from '@propusk/contracts/clean-text';
import { phoneLenientSchema } from '@propusk/contracts/common';
import { DEVICE_PROFILE_MAX_BYTES } from '@propusk/contracts/device-profile-file';
import { errorCodeText, fieldMessageText } from '@propusk/contracts/error-texts';
import { FULL_NAME_MAX_LENGTH } from '@propusk/contracts/users';
import { DEVICE_MODELS, type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import { profileFile } from '@propusk/devices/profile-file';
import pino from 'pino';
import { ConfigError, loadConfig } from './config/config.ts';
import { BackupError, restoreBackup, secretKeyId, writeBackup } from './db/backup.ts';
import { DatabaseLockedError } from './db/database.ts';
import { domainHooks } from './domain-hooks.ts';
import { systemClock } from './lib/clock.ts';
import { DataDirLockedError } from './lib/data-dir-lock.ts';
import type { Dependencies } from './lib/dependencies.ts';
import { deviceWakeUp } from './lib/device-wake.ts';
import { HttpError } from './lib/errors.ts';
import { phoneLogKey } from './lib/log-privacy.ts';
import { createMetrics } from './lib/metrics.ts';
import { judgePassword } from './lib/password-strength.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { loadOrCreateSecretKey, Secrets } from './lib/secrets.ts';
import { CLIENT_LOG_PUSHES_PER_WINDOW } from './lib/shared-rate-limiter.ts';
import { exportDeviceProfileOf, importDeviceProfileOnto } from './modules/device-checks/profile-file.ts';
import { defineModelForAdminPhone, exportDeviceModel } from './modules/device-models/service.ts';
import {
  blockAccount,
  createOrPromoteAdmin,
  setAdminPassword,
  unblockAccount,
} from './modules/users/service.ts';
import { type OpenedDatabase, openMigratedDatabase } from './runtime.ts';

const USAGE = `Использование: npm run cli -- <команда> [параметры]

Команды:
  create-admin --phone +7XXXXXXXXXX --password ПАРОЛЬ [--name "Имя"]
      Создаёт администратора или делает им существующую учётную запись и задаёт пароль (повторный запуск
      безопасен). --password - читает пароль из первой строки стандартного ввода, чтобы он не попал ни в
      список процессов, ни в историю оболочки:
      printf '%s\\n' "$PASSWORD" | npm run cli -- create-admin … --password -
  set-password --phone +7XXXXXXXXXX --password ПАРОЛЬ
      Задаёт новый пароль администратору (по SMS пароль администратора не сбрасывается). Все его сессии
      завершаются. --password - читает пароль из стандартного ввода, как у create-admin.
  block-account --phone +7XXXXXXXXXX --reason ТЕКСТ
      Блокирует учётную запись на всей платформе: все запросы отклоняются, сессии завершаются, её номера
      удаляются со всех шлагбаумов.
  unblock-account --phone +7XXXXXXXXXX
      Снимает блокировку на платформе (доступ к шлагбаумам не возвращается).
  backup --out FILE
      Резервная копия всех данных в FILE (gzip, JSON-строки), одним согласованным снимком. На встроенной
      базе данных сервер нужно остановить; на PostgreSQL можно во время работы.
  restore --from FILE [--force]
      Восстанавливает данные из FILE одной транзакцией. Отказывает, если в базе данных уже есть данные
      (--force: заменить их все) или если копия сделана для другой версии схемы.
  phone-log-key --phone +7XXXXXXXXXX
      Ключ номера в журналах сервера (phoneKey): номер в журналы не пишется, только этот ключ (HMAC с ключом
      сервера). Найдите его в журналах, чтобы разобрать обращение пользователя.
  export-profile --barrier N [--out FILE] | --model МОДЕЛЬ [--out FILE]
      Профиль устройства шлагбаума N (его формы с выученными ответами и проверки по модели) или лист
      встроенной модели — файлом (docs/devices/PROFILE-FORMAT.md; без --out — в стандартный вывод). Пароля
      устройства в файле нет.
  import-profile --barrier N --file FILE
      Заменяет профиль устройства шлагбаума N профилем из файла одной транзакцией, с записью в историю.
      Файл другой модели, неизвестной версии или с неверной формой отклоняется, ничего не меняя.
  define-model --file FILE --phone +7XXXXXXXXXX
      Сохраняет свою модель устройства из файла (профиль версии 2, docs/devices/PROFILE-FORMAT.md) для
      администратора с этим номером: с теми же проверками и русскими ошибками, что и экран «Свои модели».
  export-model --id N [--out FILE]
      Своя модель N — файлом (без --out — в стандартный вывод).`;

const REASON_MAX_LENGTH = 500;

class UsageError extends Error {}
/** Bad arguments of the backup commands, told in Russian. */
class BackupUsageError extends UsageError {}

/** Options of the backup commands: strings, and boolean flags (`--force`); messages in Russian. */
function parseBackupOptions<const Names extends string, const Flags extends string>(
  args: string[],
  names: readonly Names[],
  flags: readonly Flags[] = [],
) {
  try {
    const { values } = parseArgs({
      args,
      options: {
        ...Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
        ...Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const }])),
      },
      strict: true,
      allowPositionals: false,
    });
    return values as Partial<Record<Names, string> & Record<Flags, boolean>>;
  } catch (error) {
    throw new BackupUsageError(`неверные параметры: ${(error as Error).message}`);
  }
}

function requireFile(value: string | undefined, name: string): string {
  if (value === undefined || value.trim() === '') throw new BackupUsageError(`укажите файл: --${name} ФАЙЛ.`);
  return value;
}

const formatCount = (value: number) => value.toLocaleString('ru-RU');
const formatSize = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${(bytes / 1024).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} КБ`
    : `${(bytes / 1024 / 1024).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} МБ`;
const formatSeconds = (milliseconds: number) =>
  `${(milliseconds / 1000).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} с`;

function parseOptions<const Names extends string>(args: string[], names: readonly Names[]) {
  try {
    const { values } = parseArgs({
      args,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    return values as Partial<Record<Names, string>>;
  } catch (error) {
    throw new UsageError(`неверные параметры: ${(error as Error).message}`);
  }
}

function requireOption(value: string | undefined, name: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`укажите --${name}.`);
  return value;
}

function parseBarrierId(value: string | undefined): number {
  const text = requireOption(value, 'barrier').trim();
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1)
    throw new UsageError('--barrier: номер шлагбаума — целое число.');
  return Number(text);
}

/** The Russian text of a schema's message (the schemas speak English to the API's clients). */
const russian = (message: string | undefined) => (message && fieldMessageText(message)) ?? message ?? '';

function parsePhone(value: string | undefined): string {
  const result = phoneLenientSchema.safeParse(requireOption(value, 'phone'));
  if (!result.success) throw new UsageError(`--phone: ${russian(result.error.issues[0]?.message)}`);
  return result.data;
}

function cliDependencies(database: OpenedDatabase, config: ReturnType<typeof loadConfig>): Dependencies {
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  return {
    config,
    db: database.handle.db,
    databaseKind: database.handle.kind,
    clock: systemClock,
    secrets: new Secrets(loadOrCreateSecretKey(config.SECRET_KEY, config.dataDir)),
    // The operator's commands send no SMS; device commands wait in the outbox for the server's worker.
    sms: {
      name: 'none',
      send: () => Promise.reject(new Error('Командная строка не отправляет SMS.')),
      balance: async () => null,
    },
    logger: pino({ level: 'warn' }, pino.destination(2)),
    metrics: createMetrics(),
    rateLimits: {
      codeRequests: new RateLimiter(config.RATE_LIMIT_CODE_REQUESTS, windowMs),
      authCalls: new RateLimiter(config.RATE_LIMIT_AUTH_CALLS, windowMs),
      logs: new RateLimiter(CLIENT_LOG_PUSHES_PER_WINDOW, windowMs),
    },
    ...domainHooks(),
    ...deviceWakeUp(),
  };
}

type Command = (deps: Dependencies) => Promise<string>;

/** `--password -`: the first line of standard input; any other value is the password itself. */
async function passwordOption(value: string | undefined): Promise<string | undefined> {
  if (value !== '-') return value;
  process.stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of process.stdin) text += chunk as string;
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/**
 * `--password`: the value or, for `-`, the first line of standard input, checked like the API checks it: at
 * least 12 characters and not common or guessable (lib/password-strength.ts, issue 29 part 9).
 */
async function parsePassword(
  value: string | undefined,
  account: { phone: string; name?: string | undefined },
): Promise<string> {
  const password = passwordSchema.safeParse(requireOption(await passwordOption(value), 'password'));
  if (!password.success) {
    throw new UsageError(`--password: ${russian(password.error.issues[0]?.message)}`);
  }
  if (judgePassword(password.data, [account.phone, account.name]) !== 'ok') {
    throw new UsageError(
      '--password: пароль слишком распространён или легко угадывается. Придумайте длиннее, из нескольких не связанных слов.',
    );
  }
  return password.data;
}

/** A profile file's text, its size read first: a file past the limit is not read (the check then refuses it). */
async function readProfileText(path: string): Promise<string> {
  const size = await stat(path).then(
    (info) => info.size,
    () => {
      throw new UsageError(`--file: файл ${path} не найден или не читается.`);
    },
  );
  return size > DEVICE_PROFILE_MAX_BYTES ? 'x'.repeat(DEVICE_PROFILE_MAX_BYTES + 1) : readFile(path, 'utf8');
}

/** Validates the arguments of a command before anything touches the database. */
async function prepare(command: string, args: string[]): Promise<Command> {
  switch (command) {
    case 'create-admin': {
      const options = parseOptions(args, ['phone', 'password', 'name']);
      const phone = parsePhone(options.phone);
      const name = options.name === undefined ? undefined : collapseSpaces(options.name);
      const password = await parsePassword(options.password, { phone, name });
      if (name !== undefined && name.length > FULL_NAME_MAX_LENGTH) {
        throw new UsageError(`--name: не длиннее ${FULL_NAME_MAX_LENGTH} символов.`);
      }
      // The name is shown to residents and sent in invitation SMS: the clean-text rule (issue 29 part 6).
      if (name !== undefined && !isCleanText(name)) {
        throw new UsageError(`--name: ${russian(CLEAN_TEXT_MESSAGE)}`);
      }
      return async (deps) => {
        const result = await createOrPromoteAdmin(deps, { phone, password, fullName: name });
        return result.created
          ? `Администратор ${phone} создан (id ${result.id}).`
          : `Учётная запись ${phone} (id ${result.id}) теперь администратор; пароль${name ? ' и имя' : ''} обновлены.`;
      };
    }
    case 'set-password': {
      const options = parseOptions(args, ['phone', 'password']);
      const phone = parsePhone(options.phone);
      const password = await parsePassword(options.password, { phone });
      return async (deps) => {
        const result = await setAdminPassword(deps, { phone, password });
        return `Пароль администратора ${phone} (id ${result.id}) изменён; все его сессии завершены.`;
      };
    }
    case 'block-account': {
      const options = parseOptions(args, ['phone', 'reason']);
      const phone = parsePhone(options.phone);
      const reason = requireOption(options.reason, 'reason').trim();
      if (reason.length > REASON_MAX_LENGTH) {
        throw new UsageError(`--reason: не длиннее ${REASON_MAX_LENGTH} символов.`);
      }
      return async (deps) => {
        const result = await blockAccount(deps, { phone, reason });
        return `Учётная запись ${phone} (id ${result.id}) заблокирована на всей платформе.`;
      };
    }
    case 'backup': {
      const options = parseBackupOptions(args, ['out']);
      const file = requireFile(options.out, 'out');
      return async (deps) => {
        const summary = await writeBackup(deps.db, {
          file,
          database: deps.databaseKind,
          secretKeyId: secretKeyId(loadOrCreateSecretKey(deps.config.SECRET_KEY, deps.config.dataDir)),
        });
        return (
          `Резервная копия записана в ${summary.file}: таблиц ${summary.tables.length}, ` +
          `строк ${formatCount(summary.rows)}, ${formatSize(summary.bytes)}, за ${formatSeconds(summary.milliseconds)} ` +
          `(схема ${summary.schemaVersion}). Храните её вместе с ключом сервера (SECRET_KEY или DATA_DIR/secret.key): ` +
          'без него пароли устройств не расшифровать.'
        );
      };
    }
    case 'restore': {
      const options = parseBackupOptions(args, ['from'], ['force']);
      const file = requireFile(options.from, 'from');
      const force = options.force === true;
      return async (deps) => {
        const summary = await restoreBackup(deps.db, {
          file,
          force,
          secretKeyId: secretKeyId(loadOrCreateSecretKey(deps.config.SECRET_KEY, deps.config.dataDir)),
        });
        const lines = [
          `База данных восстановлена из ${summary.file}: таблиц ${summary.header.tables.length}, ` +
            `строк ${formatCount(summary.rows)}, за ${formatSeconds(summary.milliseconds)} ` +
            `(копия от ${summary.header.created_at}, схема ${summary.header.schema_version}).`,
        ];
        if (summary.otherSecretKey) {
          lines.push(
            'Внимание: копия сделана с другим ключом сервера. Верните прежний ключ (SECRET_KEY или ' +
              'DATA_DIR/secret.key), иначе пароли устройств не расшифровать.',
          );
        }
        return lines.join('\n');
      };
    }
    case 'unblock-account': {
      const options = parseOptions(args, ['phone']);
      const phone = parsePhone(options.phone);
      return async (deps) => {
        const result = await unblockAccount(deps, { phone });
        return `Учётная запись ${phone} (id ${result.id}) разблокирована.`;
      };
    }
    case 'phone-log-key': {
      const options = parseOptions(args, ['phone']);
      const phone = parsePhone(options.phone);
      return async (deps) => `phoneKey номера ${phone}: ${phoneLogKey(deps.secrets, phone)}`;
    }
    case 'export-profile': {
      const options = parseOptions(args, ['barrier', 'model', 'out']);
      if ((options.barrier === undefined) === (options.model === undefined)) {
        throw new UsageError('укажите --barrier N или --model МОДЕЛЬ (одно из двух).');
      }
      const model = options.model;
      if (model !== undefined && !isDeviceModel(model)) {
        throw new UsageError(`--model: неизвестная модель. Модели: ${DEVICE_MODELS.join(', ')}.`);
      }
      const barrierId = options.barrier === undefined ? null : parseBarrierId(options.barrier);
      return async (deps) => {
        const file =
          barrierId === null
            ? profileFile({
                model: model as DeviceModel,
                source: { kind: 'sheet', note: `Лист модели ${model} (Propusk)` },
                exportedAt: deps.clock.now(),
              })
            : await exportDeviceProfileOf(deps, barrierId);
        const text = `${JSON.stringify(file, null, 2)}\n`;
        if (options.out === undefined) return text.trimEnd();
        await writeFile(options.out, text, { mode: 0o644 });
        return `Профиль ${file.model} записан в ${options.out}.`;
      };
    }
    case 'import-profile': {
      const options = parseOptions(args, ['barrier', 'file']);
      const barrierId = parseBarrierId(options.barrier);
      const path = requireOption(options.file, 'file');
      return async (deps) => {
        const text = await readProfileText(path);
        const result = await importDeviceProfileOnto(deps, barrierId, text);
        return result.profile === null
          ? `Шлагбаум ${barrierId}: профиль снят, устройство работает по листу модели ${result.model}.`
          : `Шлагбаум ${barrierId}: профиль устройства ${result.model} загружен (проверок по модели в файле: ${result.verified}).`;
      };
    }
    case 'define-model': {
      const options = parseOptions(args, ['file', 'phone']);
      const path = requireOption(options.file, 'file');
      const phone = parsePhone(options.phone);
      return async (deps) => {
        const model = await defineModelForAdminPhone(deps, phone, await readProfileText(path));
        return `Своя модель «${model.name}» сохранена: ${model.model} (номер ${model.id}).`;
      };
    }
    case 'export-model': {
      const options = parseOptions(args, ['id', 'out']);
      const id = requireOption(options.id, 'id').trim();
      if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw new UsageError('--id: номер модели — целое число.');
      return async (deps) => {
        const { file, name } = await exportDeviceModel(deps, null, Number(id));
        const text = `${JSON.stringify(file, null, 2)}\n`;
        if (options.out === undefined) return text.trimEnd();
        await writeFile(options.out, text, { mode: 0o644 });
        return `Своя модель «${name}» записана в ${options.out}.`;
      };
    }
    default:
      throw new UsageError(`неизвестная команда: ${command}`);
  }
}

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  let database: OpenedDatabase | undefined;
  try {
    const run = await prepare(command, args);
    const config = loadConfig();
    database = await openMigratedDatabase(config, { poolSize: 2 });
    process.stdout.write(`${await run(cliDependencies(database, config))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`Ошибка: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof BackupError) {
      process.stderr.write(`Ошибка: ${error.message}\n`);
      return 1;
    }
    if (error instanceof HttpError) {
      process.stderr.write(
        `Ошибка: ${errorCodeText({ detail: error.detail, code: error.code, ...error.extra })}\n`,
      );
      return 1;
    }
    if (
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof DatabaseLockedError
    ) {
      process.stderr.write(`Ошибка: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`Ошибка: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`Ошибка: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
