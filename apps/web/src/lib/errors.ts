/**
 * Turning a failed call into the line a person reads (spec.md section 8). An error body's `code` has a Russian
 * text (contracts' error-texts.ts), field messages are translated one by one, the spec's own translations of
 * server texts are kept, `retry_after` adds 'Повторите через N секунд.', and anything else falls back to the
 * screen's text: no English sentence of the server reaches a screen.
 */
import { AUTH_ERROR_TEXTS, AUTH_FIELD_RULES } from '@propusk/contracts/texts/errors/auth';
import { COMMON_ERROR_TEXTS, COMMON_FIELD_RULES } from '@propusk/contracts/texts/errors/common';
import {
  codeTextIn,
  type ErrorCodeTexts,
  type FieldRule,
  fieldTextIn,
} from '@propusk/contracts/texts/errors/rules';
import { retryAfterHint, SERVER_TEXT_TRANSLATIONS } from '@propusk/contracts/texts/server-texts';
import { ApiError, NetworkError } from './api-client';

/**
 * The error texts in use. The login and code screens (the first load) meet only the common and sign-in codes;
 * every other screen waits for the whole catalogue (`loadAllErrorTexts`, its own chunk) before it renders: the
 * router's lazy routes load both together (issue 32 item 8).
 */
let catalogue: { codes: ErrorCodeTexts; fields: readonly FieldRule[] } = {
  codes: { ...COMMON_ERROR_TEXTS, ...AUTH_ERROR_TEXTS },
  fields: [...COMMON_FIELD_RULES, ...AUTH_FIELD_RULES],
};

let allErrorTexts: Promise<void> | undefined;

/** Loads every code group's texts once; later calls share the first load. */
export function loadAllErrorTexts(): Promise<void> {
  allErrorTexts ??= import('@propusk/contracts/error-texts').then(
    (module) => {
      catalogue = { codes: module.ERROR_CODE_TEXTS, fields: module.FIELD_MESSAGE_RULES };
    },
    (error: unknown) => {
      // Offline: the next screen tries again.
      allErrorTexts = undefined;
      throw error;
    },
  );
  return allErrorTexts;
}

const errorCodeText = (body: unknown) => codeTextIn(catalogue.codes, body);

/** The Russian text of a server text, or undefined when it is English that nothing translates. */
export function translateServerText(text: string): string | undefined {
  return SERVER_TEXT_TRANSLATIONS[text] ?? fieldTextIn(catalogue.fields, text);
}

export function withRetryHint(message: string, retryAfter: number | undefined): string {
  return retryAfter === undefined ? message : `${message} ${retryAfterHint(retryAfter)}`;
}

/** The translated messages of some fields of a `{field: [msgs]}` body, joined; undefined when none. */
export function joinedFieldText(error: ApiError, fields: readonly string[]): string | undefined {
  const texts = fields
    .flatMap((field) => error.fieldMessages(field))
    .map(translateServerText)
    .filter((text): text is string => Boolean(text));
  return texts.length > 0 ? texts.join(' ') : undefined;
}

/** The Russian text of the body's `code`, else of its `detail`: what the spec calls "the detail". */
function detailText(error: ApiError): string | undefined {
  return (
    errorCodeText(error.body) ?? (error.detail === undefined ? undefined : translateServerText(error.detail))
  );
}

/**
 * Messages of the first field that has translatable ones, in field order (all list-valued keys if none given);
 * `detail` among the fields stands for the body's code or detail, in its place (spec: phone save errors).
 */
export function fieldErrorText(error: ApiError, fields?: readonly string[]): string | undefined {
  const body = error.body;
  if (!body || typeof body !== 'object') return undefined;
  const keys =
    fields ??
    Object.entries(body)
      .filter(([, value]) => Array.isArray(value))
      .map(([key]) => key);
  for (const key of keys) {
    const text = key === 'detail' ? detailText(error) : joinedFieldText(error, [key]);
    if (text) return text;
  }
  return undefined;
}

export interface ErrorTexts {
  /** Shown when the server gave no usable text. */
  fallback: string;
  /** Shown when the server could not be reached; defaults to 'Ошибка сети'. */
  network?: string;
  /** Status-specific fallbacks (403 → 'Пользователь заблокирован.'…), used when the body has no known code. */
  byStatus?: Partial<Record<number, string>>;
  /** Field names to look at, in order, when the body is `{field: [msgs]}` (spec: phone save errors). */
  fields?: readonly string[];
  /**
   * false on a code screen: its countdown box already counts `retry_after` down, a second number in the error
   * line would be a second timer (issue 12).
   */
  retryHint?: boolean;
}

export function errorMessage(error: unknown, texts: ErrorTexts): string {
  if (error instanceof NetworkError) return texts.network ?? 'Ошибка сети';
  if (!(error instanceof ApiError)) return texts.fallback;
  const hinted = (text: string) => (texts.retryHint === false ? text : withRetryHint(text, error.retryAfter));
  if (texts.fields) {
    const text = fieldErrorText(error, texts.fields);
    if (text) return hinted(text);
  }
  const detail = detailText(error);
  if (detail) return hinted(detail);
  const fromFields = texts.fields ? undefined : fieldErrorText(error);
  if (fromFields) return fromFields;
  return hinted(texts.byStatus?.[error.status] ?? texts.fallback);
}
