/**
 * The import screen's texts that depend on numbers (issue 14; issue 29 item 5). Nothing here tells which rows
 * have an account before the commit (issue 28): the preview's SMS are an upper bound, since a number that
 * already logs in to Propusk is invited and reaches the device only when the person accepts.
 */
import type { ImportPreview, ImportResult } from './api/imports-api';

export function minutesText(minutes: number): string {
  if (minutes <= 0) return 'меньше минуты';
  return `около ${minutes} мин`;
}

export const IMPORT_TEXTS = {
  intro:
    'Заполните шаблон: телефон, имя, квартира или примечание, тип номера, для временного — начало и конец, для номера по расписанию — расписание. Жители без аккаунта смогут войти по своему номеру. Кто уже входит в Пропуск, получит приглашение: доступ и его номера из файла появятся на шлагбауме, только когда он его примет.',
  smsAtMost: (sms: number) => `СМС на устройство: до ${sms}`,
  confirm: (totals: ImportPreview['totals']) =>
    `Загрузить номеров: ${totals.phones}, жителей: ${totals.residents}? На устройство уйдёт СМС: до ${totals.sms}, отправка займёт ${minutesText(totals.send_minutes)}. Кто уже входит в Пропуск, получит приглашение вместо доступа.`,
  done: (result: ImportResult) =>
    [
      `Загружено номеров: ${result.phones}, жителей: ${result.residents}.`,
      result.invitations > 0
        ? `Приглашений: ${result.invitations} — эти номера уже входят в Пропуск; доступ и номера из файла появятся, когда человек примет приглашение.`
        : null,
      `СМС в очереди устройства: ${result.sms}, отправка займёт ${minutesText(result.send_minutes)}.`,
    ]
      .filter(Boolean)
      .join(' '),
} as const;
