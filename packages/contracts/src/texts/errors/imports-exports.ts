/**
 * Errors of the change history, exports and imports.
 * Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import { type ErrorCodeTexts, numberOf } from './rules.ts';

export const IMPORT_EXPORT_ERROR_TEXTS = {
  action_not_found: 'Действие не найдено.',
  export_too_large: 'Слишком много строк для выгрузки (больше 50 000). Сузьте период или фильтры.',

  import_file_missing: 'Выберите файл для загрузки.',
  import_file_invalid: 'Это не таблица: загрузите файл Эксель или текстовую таблицу, как в шаблоне.',
  import_file_too_large: 'Файл больше 2 МБ: разделите его на части.',
  import_file_unpacked_too_large:
    'Файл Эксель после распаковки слишком большой для таблицы жителей: сохраните в нём только лист с жителями или загрузите текстовую таблицу.',
  import_headers_invalid:
    'В первой строке нужны заголовки шаблона (обязателен «Телефон»). Скачайте шаблон и заполните его.',
  import_empty: 'В файле нет строк для загрузки.',
  import_too_many_rows: 'В файле больше 5000 строк: разделите его на части.',
  import_cell_too_long: (body) => {
    const line = numberOf(body, 'line');
    return `${line === undefined ? 'В файле' : `В строке ${line}`} ячейка длиннее 1000 знаков: в шаблоне таких нет. Проверьте файл.`;
  },
  import_has_problems:
    'В некоторых строках ошибки: ничего не загружено. Исправьте их и загрузите файл снова.',
  import_file_changed: 'Файл отличается от проверенного: проверьте его снова.',
  import_invitations_limit: (body) => {
    const allowed = numberOf(body, 'left');
    return `Загрузка сделала бы слишком много приглашений за сутки${allowed === undefined ? '' : ` (осталось ${allowed})`}: ничего не загружено. Разделите файл на части и загрузите остальное завтра.`;
  },
  invitations_muted_not_found: 'Приглашения от этого администратора не отключены.',
} satisfies ErrorCodeTexts;
