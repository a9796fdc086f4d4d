/**
 * The operator's privacy policy (152-ФЗ «О персональных данных», issue 28 part 6; docs/decisions/0022): the
 * text of PRIVACY_POLICY_FILE, or the built-in Russian one, read and checked once at start-up. Its version is
 * PRIVACY_POLICY_VERSION or, unset, a short hash of the text, so that a changed text asks everybody again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface PrivacyPolicy {
  version: string;
  text: string;
  /** Where the text came from: the operator's file, or the built-in default. */
  source: 'file' | 'default';
}

/** A policy is a page of text, not a book: a larger file is most likely the wrong file. */
export const PRIVACY_POLICY_MAX_BYTES = 200_000;

/** The built-in policy: what this server stores, why, for how long, and the person's rights. */
export function defaultPrivacyPolicy(retentionDays: number): string {
  return `# Политика обработки персональных данных

Оператор персональных данных — организация или человек, который управляет этим сервером Пропуска (как правило, управляющая компания, ТСЖ или владелец шлагбаума). Оператор обрабатывает ваши данные по Федеральному закону № 152-ФЗ «О персональных данных».

## Какие данные хранятся

- номер вашего телефона и имя, если вы его указали;
- номера, которые вы добавили для семьи и гостей, их имена, сроки и расписания;
- заявки и приглашения на доступ к шлагбаумам;
- история изменений ваших номеров и открытий шлагбаума из приложения;
- гостевые пропуска, которые вы создали, и номера гостей, которые ими воспользовались;
- переписка сервера с устройством шлагбаума по СМС (в ней есть номера из списка доступа);
- время и версия вашего согласия с этой политикой.

## Зачем

Только чтобы открывать шлагбаум по звонку с разрешённых номеров: записывать номера в устройство шлагбаума и удалять их оттуда, показывать администратору, кто и когда получил доступ, и отправлять коды подтверждения по СМС.

## Как долго

История изменений, открытия шлагбаума, переписка с устройством и другие журналы хранятся ${retentionDays} дней и затем удаляются. После удаления аккаунта ваше имя и номер телефона обезличиваются через 30 дней. Номера, которые сейчас открывают шлагбаум, хранятся, пока действует доступ.

## Ваши права

- получить все данные о себе: раздел «Мои данные» в профиле (файл JSON или CSV);
- исправить имя в профиле и сменить номер телефона;
- удалить номера, выйти из шлагбаума и удалить аккаунт в профиле;
- отозвать согласие — удалив аккаунт.

Без согласия с этой политикой пользоваться Пропуском нельзя: аккаунт не создаётся.
`;
}

export function loadPrivacyPolicy(
  env: {
    PRIVACY_POLICY_FILE?: string | undefined;
    PRIVACY_POLICY_VERSION?: string | undefined;
    RETENTION_DAYS: number;
  },
  configError: (message: string) => Error,
): PrivacyPolicy {
  const fail = (reason: string) => configError(`Invalid configuration:\n  PRIVACY_POLICY_FILE: ${reason}`);
  let text: string;
  let source: PrivacyPolicy['source'] = 'default';
  if (env.PRIVACY_POLICY_FILE === undefined) {
    text = defaultPrivacyPolicy(env.RETENTION_DAYS);
  } else {
    const file = path.resolve(env.PRIVACY_POLICY_FILE);
    let size: number;
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw fail(`${file} is not a file`);
      size = stats.size;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('Invalid configuration')) throw error;
      throw fail(`${file} cannot be read`);
    }
    if (size > PRIVACY_POLICY_MAX_BYTES)
      throw fail(`${file} is larger than ${PRIVACY_POLICY_MAX_BYTES} bytes`);
    const bytes = readFileSync(file);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
    } catch {
      throw fail(`${file} is not UTF-8 text`);
    }
    if (text.trim() === '') throw fail(`${file} is empty`);
    source = 'file';
  }
  const version = env.PRIVACY_POLICY_VERSION ?? createHash('sha256').update(text).digest('hex').slice(0, 12);
  return { version, text, source };
}
