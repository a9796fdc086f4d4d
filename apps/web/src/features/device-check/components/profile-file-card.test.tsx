import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ProfileFileCard } from './profile-file-card';

const IMPORT = 'POST /api/admin/barriers/5/device-profile/import/';

async function choose(user: ReturnType<typeof renderRoute>['user'], text: string) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  await user.upload(input, new File([text], 'profile.json', { type: 'application/json' }));
}

describe('«Скачать профиль» / «Загрузить профиль»', () => {
  it('sends the chosen file as text and says how many runs verified it', async () => {
    signIn();
    const server = mockApi({ [IMPORT]: { model: 'RTU5025', profile: null, verified: 2 } });
    const { user } = renderRoute(<ProfileFileCard barrierId={5} />, { path: '/x' });
    expect(screen.getByRole('button', { name: 'Скачать профиль' })).toBeInTheDocument();
    await choose(user, '{"format":"propusk-device-profile"}');
    await user.click(screen.getByRole('button', { name: 'Загрузить профиль' }));
    expect(await screen.findByText('Профиль загружен. Проверок по модели в файле: 2.')).toBeInTheDocument();
    expect(server.callsTo(IMPORT)[0]?.body).toEqual({ file: '{"format":"propusk-device-profile"}' });
  });

  it('shows the server’s Russian problems for a bad file', async () => {
    signIn();
    mockApi({
      [IMPORT]: [
        400,
        {
          detail: 'The device profile file does not fit this barrier.',
          code: 'device_profile_file_invalid',
          problems: ['Неизвестная версия файла профиля: 2. Этот сервер читает версию 1.'],
        },
      ],
    });
    const { user } = renderRoute(<ProfileFileCard barrierId={5} />, { path: '/x' });
    await choose(user, '{}');
    await user.click(screen.getByRole('button', { name: 'Загрузить профиль' }));
    expect(
      await screen.findByText(
        'Файл профиля не подходит: профиль шлагбаума не изменён. Неизвестная версия файла профиля: 2. Этот сервер читает версию 1.',
      ),
    ).toBeInTheDocument();
  });
});
