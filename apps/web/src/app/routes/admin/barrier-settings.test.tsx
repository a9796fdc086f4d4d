import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../../features/admin-settings/template';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { BarrierSettingsRoute } from './barrier-settings';

const settings = {
  settings: {
    query_range: {
      name: 'Запрос диапазона',
      description: 'Запрашивает номера из ячеек.',
      template: '{pwd}AL{from}#{to}#',
      params: [
        { key: 'from', name: 'С ячейки', description: 'Например 001', example: '001' },
        { key: 'to', name: 'По ячейку', description: 'Например 010', example: '010' },
      ],
    },
    all: { name: 'Все номера', description: 'Список номеров.', template: '{pwd}ALL#', params: [] },
  },
};

describe('fillTemplate', () => {
  it('fills entered values and leaves the other placeholders as written', () => {
    expect(fillTemplate('{pwd}AL{from}#{to}#', { from: '001' })).toBe('{pwd}AL001#{to}#');
  });
});

describe('/barrier-settings', { timeout: 20_000 }, () => {
  it('previews the command live and sends the setting with its parameters', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/settings/': settings,
      'POST /api/admin/barriers/5/settings/': { detail: 'Setting sent.', command_id: 1 },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Запрос диапазона' }));
    expect(screen.getByText('Запрашивает номера из ячеек.')).toBeInTheDocument();
    expect(screen.getByTestId('command-preview')).toHaveTextContent('{pwd}AL{from}#{to}#');
    const from = screen.getByRole('textbox', { name: 'С ячейки' });
    expect(from).toHaveAttribute('placeholder', 'Например 001');
    await user.type(from, '001');
    expect(screen.getByTestId('command-preview')).toHaveTextContent('{pwd}AL001#{to}#');
    await user.type(screen.getByRole('textbox', { name: 'По ячейку' }), '010');
    expect(screen.getByTestId('command-preview')).toHaveTextContent('{pwd}AL001#010#');
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText("Настройка 'Запрос диапазона' успешно отправлена.")).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/settings/')[0]?.body).toEqual({
      setting: 'query_range',
      params: { from: '001', to: '010' },
    });
  });

  it('shows the server detail, the fallback and the network failure of a send', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/settings/': settings,
      'POST /api/admin/barriers/5/settings/': [
        409,
        { detail: 'The weekly SMS limit of this barrier would be exceeded.', code: 'sms_weekly_limit' },
      ],
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Все номера' }));
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(
      await screen.findByText('Будет превышен недельный лимит SMS этого шлагбаума.'),
    ).toBeInTheDocument();
    server.on({ 'POST /api/admin/barriers/5/settings/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText('Ошибка при отправке настройки.')).toBeInTheDocument();
    server.on({ 'POST /api/admin/barriers/5/settings/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText('Ошибка сети при отправке настройки.')).toBeInTheDocument();
  });

  it('says when the settings cannot be loaded', async () => {
    signIn();
    mockApi({ 'GET /api/admin/barriers/5/settings/': [500, {}] });
    renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state: { barrier_id: 5 } });
    expect(await screen.findByText('Ошибка при загрузке настроек')).toBeInTheDocument();
  });
});
