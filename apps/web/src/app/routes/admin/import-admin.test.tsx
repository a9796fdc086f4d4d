import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ImportAdminRoute } from './import-admin';

const state = { barrier_id: 5 };
const digest = 'a'.repeat(64);

const row = (line: number, phone: string, problems: { code: string; text: string }[] = []) => ({
  line,
  phone,
  name: 'Новиков Николай',
  note: 'кв. 7',
  type: 'primary',
  problems,
  outcome:
    problems.length > 0
      ? null
      : {
          code: 'resident',
          text: 'Получит доступ. Если этим номером уже входят в Пропуск, человек получит приглашение и решит сам.',
        },
});

const preview = (rows: ReturnType<typeof row>[]) => ({
  digest,
  rows,
  totals: {
    rows: rows.length,
    rows_with_problems: rows.filter((item) => item.problems.length > 0).length,
    residents: rows.filter((item) => item.type === 'primary' && item.problems.length === 0).length,
    phones: rows.filter((item) => item.problems.length === 0).length,
    sms: 41,
    send_minutes: 3,
  },
});

describe('/import-admin', () => {
  it('names the problems of each row and imports only a file without any, after a confirmation', async () => {
    signIn();
    let previews = 0;
    const server = mockApi({
      'POST /api/admin/barriers/5/import/preview/': () => {
        previews += 1;
        return previews === 1
          ? preview([
              row(2, '+79001234567'),
              row(3, '12345', [
                { code: 'phone_invalid', text: 'Неверный номер телефона: нужен +7 и 10 цифр.' },
              ]),
            ])
          : preview([row(2, '+79001234567')]);
      },
      'POST /api/admin/barriers/5/import/': [
        201,
        { phones: 1, residents: 1, invitations: 2, sms: 41, send_minutes: 3 },
      ],
    });
    const { user } = renderRoute(<ImportAdminRoute />, { path: '/import-admin', state });
    expect(screen.getByRole('heading', { name: 'Импорт жителей' })).toBeInTheDocument();
    const file = new File(['Телефон\n+79001234567\n'], 'жители.csv', { type: 'text/csv' });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;

    await user.upload(input, file);
    await user.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByText('Неверный номер телефона: нужен +7 и 10 цифр.')).toBeInTheDocument();
    expect(screen.getByTestId('import-totals')).toHaveTextContent('Строк с ошибками: 1');
    expect(screen.getByRole('button', { name: 'Импортировать' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByText('Строк с ошибками: 0')).toBeInTheDocument();
    // At most: a number that already logs in is invited, and costs nothing until he accepts (issue 29 item 5).
    expect(screen.getByTestId('import-sms')).toHaveTextContent('СМС на устройство: до 41');
    expect(screen.getByTestId('import-outcome')).toHaveTextContent(
      'Получит доступ. Если этим номером уже входят в Пропуск, человек получит приглашение и решит сам.',
    );
    expect(screen.getByTestId('import-minutes')).toHaveTextContent('Отправка займёт около 3 мин');
    await user.click(screen.getByRole('button', { name: 'Импортировать' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('На устройство уйдёт СМС: до 41');
    expect(dialog).toHaveTextContent('Кто уже входит в Пропуск, получит приглашение вместо доступа.');
    expect(server.callsTo('POST /api/admin/barriers/5/import/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Да, импортировать' }));
    const done = await screen.findByTestId('success-line');
    expect(done).toHaveTextContent('Загружено номеров: 1, жителей: 1.');
    expect(done).toHaveTextContent(
      'Приглашений: 2 — эти номера уже входят в Пропуск; доступ и номера из файла появятся, когда человек примет приглашение.',
    );
    const [commit] = server.callsTo('POST /api/admin/barriers/5/import/');
    expect(commit?.query.get('digest')).toBe(digest);
  });

  it('clears a failed template download once the file is checked', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/import/template/': [500, { detail: 'x' }],
      'POST /api/admin/barriers/5/import/preview/': preview([row(2, '+79001234567')]),
    });
    const { user } = renderRoute(<ImportAdminRoute />, { path: '/import-admin', state });
    await user.click(screen.getByRole('button', { name: 'Шаблон для Эксель' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    const file = new File(['Телефон\n+79001234567\n'], 'жители.csv', { type: 'text/csv' });
    await user.upload(document.querySelector('input[type="file"]') as HTMLInputElement, file);
    await user.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByText('Строк с ошибками: 0')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
