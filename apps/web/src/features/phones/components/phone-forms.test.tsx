import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AddPhoneForm } from './add-phone-form';
import { EditPhoneForm } from './edit-phone-form';
import { emptySchedule, validateAddPhone } from './phone-validation';

/** In a router, as on its screens: the forms keep their values when a session ends (use-form-draft.ts). */
function renderForm(ui: React.ReactNode) {
  return {
    user: userEvent.setup(),
    ...render(
      <MantineProvider env="test">
        <MemoryRouter>{ui}</MemoryRouter>
      </MantineProvider>,
    ),
  };
}

describe('add phone form', () => {
  it('shows a message as soon as a touched field is invalid and keeps save disabled', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const { user } = renderForm(<AddPhoneForm onSubmit={onSubmit} />);
    const save = screen.getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();
    // No field is marked before it is touched; the disabled button says why.
    expect(screen.getByLabelText(/Имя/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('save-disabled-reason')).toHaveTextContent('Введите имя и номер телефона.');
    await user.type(screen.getByLabelText(/Имя/), 'Дача');
    await user.clear(screen.getByLabelText(/Имя/));
    expect(screen.getByLabelText(/Имя/)).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByLabelText(/Имя/), 'Дача');
    await user.type(screen.getByLabelText(/Номер телефона/), '912');
    expect(screen.getByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText(/Номер телефона/), '0000001');
    expect(save).toBeEnabled();
    await user.click(save);
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Дача', phone: '+79120000001', type: 'permanent' }),
    );
  });

  it('shows the error line the save returned', async () => {
    const { user } = renderForm(<AddPhoneForm onSubmit={async () => 'Этот номер уже используется.'} />);
    await user.type(screen.getByLabelText(/Имя/), 'Дача');
    await user.type(screen.getByLabelText(/Номер телефона/), '9120000001');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Этот номер уже используется.');
  });
});

describe('phone rules', () => {
  const base = {
    name: 'Курьер',
    phone: '+79120000002',
    start_time: '',
    end_time: '',
    schedule: emptySchedule(),
  };

  it('needs a start and an end for a temporary phone, start first', () => {
    expect(validateAddPhone({ ...base, type: 'temporary' }).window).toBe('Укажите время начала и конца.');
    expect(
      validateAddPhone({
        ...base,
        type: 'temporary',
        start_time: '2030-05-02T18:00',
        end_time: '2030-05-02T09:00',
      }).window,
    ).toBe('Время начала должно быть раньше времени конца.');
    expect(
      validateAddPhone({
        ...base,
        type: 'temporary',
        start_time: '2030-05-02T09:00',
        end_time: '2030-05-02T18:00',
      }),
    ).toEqual({});
  });

  it('refuses a schedule with an interval that ends before it starts', () => {
    const schedule = { ...emptySchedule(), monday: [{ start_time: '12:00', end_time: '08:00' }] };
    expect(validateAddPhone({ ...base, type: 'schedule', schedule }).schedule).toBe(
      'Есть интервалы в расписании с некорректным временем.',
    );
  });
});

describe('edit phone form with a schedule', () => {
  it('adds a default 08:00–12:00 interval, marks a wrong row and blocks saving until fixed', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const { user } = renderForm(
      <EditPhoneForm
        type="schedule"
        phoneNumber="+79120000003"
        initialValues={{ name: 'Няня', start_time: '', end_time: '', schedule: emptySchedule() }}
        onSubmit={onSubmit}
      />,
    );
    for (const day of ['Понедельник', 'Вторник', 'Среда', 'Четверг', 'Пятница', 'Суббота', 'Воскресенье']) {
      expect(screen.getByRole('button', { name: `Добавить интервал: ${day}` })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Добавить интервал: Среда' }));
    const start = screen.getByLabelText('Среда, интервал 1: начало');
    const end = screen.getByLabelText('Среда, интервал 1: конец');
    expect(start).toHaveValue('08:00');
    expect(end).toHaveValue('12:00');
    await user.clear(end);
    await user.type(end, '07:00');
    const row = screen.getByTestId('interval-wednesday-0');
    expect(within(row).getByText('Неверный интервал.')).toBeInTheDocument();
    expect(screen.getByText('Есть интервалы в расписании с некорректным временем.')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Сохранить изменения' });
    expect(save).toBeDisabled();
    await user.clear(end);
    await user.type(end, '13:00');
    expect(save).toBeEnabled();
    await user.click(screen.getByRole('button', { name: /Удалить интервал/ }));
    expect(screen.queryByTestId('interval-wednesday-0')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Добавить интервал: Пятница' }));
    await user.click(save);
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        name: 'Няня',
        schedule: expect.objectContaining({ friday: [{ start_time: '08:00', end_time: '12:00' }] }),
      }),
    );
  });

  it('needs a name', async () => {
    const { user } = renderForm(
      <EditPhoneForm
        type="permanent"
        phoneNumber="+79120000001"
        initialValues={{ name: 'Дача', start_time: '', end_time: '', schedule: emptySchedule() }}
        onSubmit={async () => undefined}
      />,
    );
    await user.clear(screen.getByLabelText(/Имя/));
    expect(screen.getByText('Введите имя.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить изменения' })).toBeDisabled();
  });
});
