import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ownExtraPhone } from '../../../test/user-fixtures';
import { AddPhoneRoute } from './add-phone';

const state = { barrier_id: 8 };

async function fillNameAndPhone(user: UserEvent, name = 'Жена', digits = '9003334455') {
  await user.type(screen.getByLabelText(/Имя/), name);
  await user.type(screen.getByLabelText(/Номер телефона/), digits);
}

async function chooseType(user: UserEvent, label: string) {
  await user.click(screen.getByRole('textbox', { name: 'Тип номера' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('/add-phone', () => {
  it('adds a permanent phone, logs it and returns to /mybarrier', async () => {
    signIn();
    const server = mockApi({
      'POST /api/barriers/8/phones/': [201, ownExtraPhone],
      'POST /api/logs/': [204, undefined],
    });
    const { user } = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state });
    const save = screen.getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();
    await fillNameAndPhone(user, '  Жена ');
    await user.click(save);
    expect(await screen.findByText('Screen: /mybarrier')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"barrier_id":8}');
    const added = server.callsTo('POST /api/barriers/8/phones/');
    expect(added).toHaveLength(1);
    expect(added[0]?.body).toEqual({ name: 'Жена', phone: '+79003334455', type: 'permanent' });
    expect(added[0]?.headers.authorization).toBe('Bearer access-1');
    expect(server.callsTo('POST /api/admin/barriers/8/phones/')).toHaveLength(0);
    await waitFor(() => expect(server.callsTo('POST /api/logs/')).toHaveLength(1));
    expect(server.callsTo('POST /api/logs/')[0]?.body).toEqual({
      app: 'web',
      level: 'info',
      page: 'add-phone',
      message: 'phone 52 (permanent) added to barrier 8',
    });
  });

  it('says why save is disabled: a temporary phone without its start and end', async () => {
    signIn();
    mockApi({});
    const { user } = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state });
    await fillNameAndPhone(user);
    await chooseType(user, 'Временный');
    const save = screen.getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();
    // Before: a disabled button and nothing on screen saying why.
    expect(screen.getByTestId('save-disabled-reason')).toHaveTextContent('Укажите время начала и конца.');
    expect(save).toHaveAccessibleDescription('Укажите время начала и конца.');
    await user.type(screen.getByLabelText(/Начало/), '2030-05-01T09:00');
    await user.type(screen.getByLabelText(/Конец/), '2030-05-01T18:00');
    expect(save).toBeEnabled();
    expect(screen.queryByTestId('save-disabled-reason')).not.toBeInTheDocument();
  });

  it('sends the window of a temporary phone as date-times with the offset', async () => {
    signIn();
    const server = mockApi({
      'POST /api/barriers/8/phones/': [201, { ...ownExtraPhone, type: 'temporary' }],
      'POST /api/logs/': [204, undefined],
    });
    const { user } = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state });
    await fillNameAndPhone(user, 'Гость', '9004445566');
    await chooseType(user, 'Временный');
    await user.type(screen.getByLabelText(/Начало/), '2030-05-01T09:00');
    await user.type(screen.getByLabelText(/Конец/), '2030-05-01T18:00');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Screen: /mybarrier')).toBeInTheDocument();
    const body = server.callsTo('POST /api/barriers/8/phones/')[0]?.body as Record<string, string>;
    expect(body).toEqual({
      name: 'Гость',
      phone: '+79004445566',
      type: 'temporary',
      start_time: expect.stringMatching(/^2030-05-01T09:00:00[+-]\d\d:\d\d$/),
      end_time: expect.stringMatching(/^2030-05-01T18:00:00[+-]\d\d:\d\d$/),
    });
  });

  it('sends only the days of a schedule that have intervals', async () => {
    signIn();
    const server = mockApi({
      'POST /api/barriers/8/phones/': [201, { ...ownExtraPhone, type: 'schedule' }],
      'POST /api/logs/': [204, undefined],
    });
    const { user } = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state });
    await fillNameAndPhone(user, 'Няня', '9006667788');
    await chooseType(user, 'По расписанию');
    await user.click(screen.getByRole('button', { name: 'Добавить интервал: Среда' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Screen: /mybarrier')).toBeInTheDocument();
    expect(server.callsTo('POST /api/barriers/8/phones/')[0]?.body).toEqual({
      name: 'Няня',
      phone: '+79006667788',
      type: 'schedule',
      schedule: { wednesday: [{ start_time: '08:00', end_time: '12:00' }] },
    });
  });

  it('shows the first available server error of phone, type, detail, schedule, start_time, end_time', async () => {
    signIn();
    const server = mockApi({ 'POST /api/logs/': [204, undefined] });
    const { user } = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state });
    await fillNameAndPhone(user);
    /** Answers the save with `reply` and waits for the error line to read `text`. */
    const saveShows = async (reply: [number, Record<string, unknown>], text: string) => {
      server.on({ 'POST /api/barriers/8/phones/': reply });
      await user.click(screen.getByRole('button', { name: 'Сохранить' }));
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
    };
    const endTime = { end_time: ['The end time must be in the future.'] };
    const fromStart = { ...endTime, start_time: ['Enter the start and end time.'] };
    const fromSchedule = { ...fromStart, schedule: ['Add at least one schedule interval.'] };
    const fromDetail = {
      ...fromSchedule,
      detail: 'The limit of phones per user on this barrier has been reached.',
      code: 'limit_user_phones',
    };
    const fromType = { ...fromDetail, type: ['Type must be one of: permanent, temporary, schedule.'] };
    await saveShows(
      [400, { ...fromType, phone: ['Phone number is already in use.'] }],
      'Этот номер уже используется.',
    );
    await saveShows([400, fromType], 'Выберите тип номера.');
    await saveShows([400, fromDetail], 'Достигнут лимит номеров на пользователя для этого шлагбаума.');
    await saveShows([400, fromSchedule], 'Добавьте хотя бы один интервал расписания.');
    await saveShows([400, fromStart], 'Укажите время начала и конца.');
    await saveShows([400, endTime], 'Время конца должно быть в будущем.');
    // English that nothing translates never reaches the screen: the screen's own text does.
    await saveShows([400, { end_time: ['Something new went wrong.'] }], 'Ошибка при сохранении номера.');
    await saveShows([500, {}], 'Ошибка при сохранении номера.');
    expect(server.callsTo('POST /api/barriers/8/phones/')).toHaveLength(8);

    expect(screen.queryByText(/Screen:/)).not.toBeInTheDocument();
    await waitFor(() =>
      expect(server.callsTo('POST /api/logs/').map((call) => call.body)).toContainEqual({
        app: 'web',
        level: 'warn',
        page: 'add-phone',
        message: 'add phone failed: Этот номер уже используется.',
      }),
    );
  });
});
