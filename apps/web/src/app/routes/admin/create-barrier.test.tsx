import { DEVICE_MODELS, getSheet } from '@propusk/devices/models';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEVICE_MODEL } from '../../../features/admin-barriers/device-models';
import { barrier } from '../../../test/admin-fixtures';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { CreateBarrierRoute } from './create-barrier';

async function fillValidForm(user: ReturnType<typeof renderRoute>['user']) {
  await user.click(screen.getByRole('button', { name: 'Вставить пример адреса' }));
  await user.type(screen.getByLabelText(/Телефон устройства/), '9005550001');
  await user.type(screen.getByLabelText(/Пароль устройства/), '1234');
  await user.clear(screen.getByLabelText(/Максимум номеров/));
  await user.type(screen.getByLabelText(/Максимум номеров/), '100');
}

describe('/create-barrier', () => {
  it('shows every validation message of an empty form and sends nothing', async () => {
    signIn();
    const server = mockApi();
    const { user } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    expect(screen.getByRole('heading', { name: 'Создание шлагбаума' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Телефон устройства/)).toHaveValue('+7');
    expect(screen.getByRole('checkbox', { name: 'Публичный шлагбаум' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    expect(await screen.findByText('Укажите корректный адрес.')).toBeInTheDocument();
    expect(screen.getByText('Неверный формат номера.')).toBeInTheDocument();
    expect(screen.getByText('Пароль должен состоять из 4 цифр.')).toBeInTheDocument();
    // The amount starts at what the default model holds (issue 41), so it is no error.
    expect(screen.queryByText('Укажите число от 1 до 10000.')).not.toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/')).toHaveLength(0);
  });

  it('refuses a typed address that was not chosen from the suggestions, and numbers out of range', async () => {
    signIn();
    mockApi({ 'GET /api/addresses/suggest/': { suggestions: [] } });
    const { user } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    await user.type(screen.getByRole('textbox', { name: /Адрес/ }), 'просто текст');
    await user.clear(screen.getByLabelText(/Максимум номеров/));
    await user.type(screen.getByLabelText(/Максимум номеров/), '10001');
    await user.type(screen.getByLabelText(/Пароль устройства/), '12ab345');
    expect(screen.getByLabelText(/Пароль устройства/)).toHaveValue('1234');
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    expect(await screen.findByText('Укажите корректный адрес.')).toBeInTheDocument();
    // The spec's words, then what this model holds on its own line: the same figure as the field's hint.
    const spec = screen.getByText('Укажите число от 1 до 10000.');
    const capacity = getSheet(DEFAULT_DEVICE_MODEL).capacity;
    expect(spec.nextElementSibling).toHaveTextContent(`Эта модель хранит не больше ${capacity} номеров.`);
    expect(screen.getByText(`От 1 до ${capacity}: столько номеров хранит эта модель`)).toBeInTheDocument();
    expect(screen.queryByText('Пароль должен состоять из 4 цифр.')).not.toBeInTheDocument();
  });

  it('offers address suggestions from the server and accepts a chosen one', async () => {
    signIn();
    const server = mockApi({
      'GET /api/addresses/suggest/': ({ query }) => ({
        suggestions: [
          { value: `г Казань, ул ${query.get('query')}, д 1` },
          { value: 'г Казань, ул Баумана, д 2' },
        ],
      }),
      'POST /api/admin/barriers/': [201, barrier],
    });
    const { user } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    await user.type(screen.getByRole('textbox', { name: /Адрес/ }), 'Баумана');
    await user.click(await screen.findByRole('option', { name: 'г Казань, ул Баумана, д 2' }));
    expect(screen.getByRole('textbox', { name: /Адрес/ })).toHaveValue('г Казань, ул Баумана, д 2');
    expect(server.callsTo('GET /api/addresses/suggest/').at(-1)?.query.get('count')).toBe('10');
    await user.type(screen.getByLabelText(/Телефон устройства/), '9005550001');
    await user.type(screen.getByLabelText(/Пароль устройства/), '1234');
    await user.clear(screen.getByLabelText(/Максимум номеров/));
    await user.type(screen.getByLabelText(/Максимум номеров/), '50');
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    await screen.findByText('Шлагбаум успешно создан.');
    expect(server.callsTo('POST /api/admin/barriers/')[0]?.body).toMatchObject({
      address: 'г Казань, ул Баумана, д 2',
    });
  });

  it('creates the barrier, confirms it and goes to /admin-barriers after a second', async () => {
    signIn();
    const server = mockApi({ 'POST /api/admin/barriers/': [201, barrier] });
    const { user } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    await fillValidForm(user);
    await user.type(screen.getByLabelText('Дополнительная информация'), 'Въезд со двора');
    await user.click(screen.getByRole('checkbox', { name: 'Публичный шлагбаум' }));
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    expect(await screen.findByText('Шлагбаум успешно создан.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/')[0]?.body).toEqual({
      address: 'г Москва, ул Тверская, д 7',
      device_phone: '+79005550001',
      device_model: 'RTU5025',
      device_password: '1234',
      device_phones_amount: 100,
      additional_info: 'Въезд со двора',
      is_public: false,
    });
    expect(screen.queryByText('Screen: /admin-barriers')).not.toBeInTheDocument();
    expect(await screen.findByText('Screen: /admin-barriers')).toBeInTheDocument();
  });

  it('shows the server detail, or the fallbacks', async () => {
    signIn();
    const server = mockApi({
      'POST /api/admin/barriers/': [
        409,
        { detail: 'A barrier with this device phone already exists.', code: 'device_phone_taken' },
      ],
    });
    const { user } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    expect(await screen.findByText('Шлагбаум с этим номером устройства уже есть.')).toBeInTheDocument();
    server.on({ 'POST /api/admin/barriers/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    expect(await screen.findByText('Ошибка при создании.')).toBeInTheDocument();
    server.on({ 'POST /api/admin/barriers/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Создать' }));
    expect(await screen.findByText('Ошибка сети.')).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('POST /api/admin/barriers/')).toHaveLength(3));
  });
});

describe('/create-barrier: the model list from @propusk/devices (issue 32, item 7)', {
  timeout: 20_000,
}, () => {
  it('offers every sheet model with its capacity, and shows the chosen model’s password hint', async () => {
    signIn();
    mockApi();
    const { user } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    expect(screen.getByText('Пароль устройства — 4 цифры, заводской 1234')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: /Модель устройства/ }));
    for (const model of DEVICE_MODELS) {
      const sheet = getSheet(model);
      expect(
        await screen.findByRole('option', {
          name: new RegExp(`^${escapeRegExp(sheet.label)} — до ${sheet.capacity} `),
        }),
        model,
      ).toBeInTheDocument();
    }
    await user.click(screen.getByRole('option', { name: /^Telemetrica/ }));
    expect(screen.getByText('У этой модели нет пароля')).toBeInTheDocument();
    // The amount left at the default model's capacity follows the model chosen.
    expect(screen.getByLabelText(/Максимум номеров/)).toHaveValue('4');
    expect(screen.getByText('От 1 до 4: столько номеров хранит эта модель')).toBeInTheDocument();
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
