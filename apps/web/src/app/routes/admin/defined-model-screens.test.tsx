import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminBarrierPageRoute } from './admin-barrier-page';
import { BarrierSettingsRoute } from './barrier-settings';
import { DeviceModelsAdminRoute } from './device-models-admin';
import { barrier, deviceHealth, limits } from './test-data';

const state = { barrier_id: 5 };
/** The forms of docs/devices/examples/defined-model.json. */
const example = {
  forms: { add: { template: '{pwd}#ADD#{slot}#{number}#' }, delete: { template: '{pwd}#DEL#{slot}#' } },
  replies: { add: 'Add OK {slot}', delete: 'Del OK {slot}' },
};
const unverified = { defined: true, name: 'GSM-модуль (пример)', verified: false };

function barrierScreensApi(status: { defined: boolean; name: string | null; verified: boolean }) {
  return mockApi({
    'GET /api/admin/barriers/5/': { ...barrier, device_model: 'defined:3' },
    'GET /api/admin/barriers/5/limits/': limits,
    'GET /api/admin/barriers/5/device-health/': deviceHealth,
    'GET /api/admin/barriers/5/settings/': { settings: {} },
    'GET /api/admin/barriers/5/device-model/': status,
    'GET /api/admin/device-models/': { models: [] },
  });
}

describe('a barrier on a model the administrator defined', () => {
  it('shows «не проверено на устройстве» on the barrier page and the settings page until a run verified it', async () => {
    signIn();
    barrierScreensApi(unverified);
    const page = renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    expect(await screen.findByTestId('unverified-model-banner')).toHaveTextContent(
      'не проверено на устройстве',
    );
    expect(screen.getByTestId('unverified-model-banner')).toHaveTextContent('«GSM-модуль (пример)»');
    page.unmount();
    const settings = renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state });
    expect(await screen.findByTestId('unverified-model-banner')).toHaveTextContent(
      'не проверено на устройстве',
    );
    settings.unmount();

    barrierScreensApi({ ...unverified, verified: true });
    renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    expect(await screen.findByTestId('barrier-address')).toBeInTheDocument();
    expect(screen.queryByTestId('unverified-model-banner')).not.toBeInTheDocument();
  });

  it('shows nothing for a barrier on a built-in model', async () => {
    signIn();
    barrierScreensApi({ defined: false, name: null, verified: true });
    renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state });
    expect(await screen.findByTestId('barrier-address')).toBeInTheDocument();
    expect(screen.queryByTestId('unverified-model-banner')).not.toBeInTheDocument();
  });
});

describe('/device-models-admin', () => {
  it('previews each command with sample values, tells what to fix in Russian, and saves the definition', async () => {
    signIn();
    const api = mockApi({
      'GET /api/admin/device-models/': { models: [] },
      'POST /api/admin/device-models/': ({ body }) => ({
        id: 3,
        model: 'defined:3',
        name: (body as { definition: { name: string } }).definition.name,
        definition: (body as { definition: unknown }).definition,
        barriers: 0,
        updated_at: '2026-11-28T12:00:00.000Z',
      }),
    });
    const { user } = renderRoute(<DeviceModelsAdminRoute />, { path: '/device-models-admin' });
    expect(await screen.findByText('Своих моделей пока нет.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Новая модель' }));
    await user.type(screen.getByRole('textbox', { name: 'Название модели' }), 'GSM-модуль');
    await user.click(screen.getByRole('button', { name: 'Сохранить модель' }));
    const problems = await screen.findByTestId('model-problems');
    expect(problems).toHaveTextContent('Команда записи номера: заполните поле.');
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    const type = (label: string, text: string) =>
      user.type(screen.getByRole('textbox', { name: label }), text.replace(/[{[]/g, '$&$&'));
    await type('Команда записи номера', example.forms.add.template);
    await type('Команда удаления номера', example.forms.delete.template);
    await type('Ответ на запись номера', example.replies.add);
    await type('Ответ на удаление номера', example.replies.delete);
    expect(await screen.findByTestId('model-preview')).toHaveTextContent('1234#ADD#005#+79161234567#');
    await user.click(screen.getByRole('button', { name: 'Сохранить модель' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    const posted = api.calls.find((call) => call.method === 'POST')?.body as {
      definition: { forms: { add: { template: string } }; replies: { delete: string[] } };
    };
    expect(posted.definition.forms.add.template).toBe('{pwd}#ADD#{slot}#{number}#');
    expect(posted.definition.replies.delete).toEqual(['Del OK {slot}']);
  });
});
