/**
 * Turning a failed call into the line a person reads (spec.md section 8): known English server texts are
 * translated, `retry_after` adds 'Повторите через N секунд.', anything else falls back to the screen's text.
 */
import { retryAfterHint, SERVER_TEXT_TRANSLATIONS } from '@propusk/contracts/messages';
import { ApiError, NetworkError } from './api-client';

export function translateServerText(text: string): string {
  return SERVER_TEXT_TRANSLATIONS[text] ?? text;
}

export function withRetryHint(message: string, retryAfter: number | undefined): string {
  return retryAfter === undefined ? message : `${message} ${retryAfterHint(retryAfter)}`;
}

/** All messages of a `{field: [msgs]}` body, in field order, translated. */
export function fieldErrorText(error: ApiError, fields?: readonly string[]): string | undefined {
  const body = error.body;
  if (!body || typeof body !== 'object') return undefined;
  const keys = fields ?? Object.keys(body).filter((key) => key !== 'detail' && key !== 'retry_after');
  for (const key of keys) {
    const messages = error.fieldMessages(key);
    if (messages.length > 0) return messages.map(translateServerText).join(' ');
  }
  return undefined;
}

export interface ErrorTexts {
  /** Shown when the server gave no usable text. */
  fallback: string;
  /** Shown when the server could not be reached; defaults to 'Ошибка сети'. */
  network?: string;
  /** Status-specific fallbacks (403 → 'Пользователь заблокирован.'…), used when the body has no detail. */
  byStatus?: Partial<Record<number, string>>;
  /** Field names to look at, in order, when the body is `{field: [msgs]}` (spec: phone save errors). */
  fields?: readonly string[];
}

export function errorMessage(error: unknown, texts: ErrorTexts): string {
  if (error instanceof NetworkError) return texts.network ?? 'Ошибка сети';
  if (!(error instanceof ApiError)) return texts.fallback;
  if (texts.fields) {
    const text = fieldErrorText(error, texts.fields);
    if (text) return withRetryHint(text, error.retryAfter);
  }
  const detail = error.detail;
  if (detail) return withRetryHint(translateServerText(detail), error.retryAfter);
  const fromFields = texts.fields ? undefined : fieldErrorText(error);
  if (fromFields) return fromFields;
  return withRetryHint(texts.byStatus?.[error.status] ?? texts.fallback, error.retryAfter);
}
