import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quickWindow } from '../../../lib/dates';
import { AddPhoneForm } from './add-phone-form';

function renderForm() {
  return {
    user: userEvent.setup(),
    ...render(
      <MantineProvider env="test">
        <MemoryRouter>
          <AddPhoneForm onSubmit={async () => undefined} />
        </MemoryRouter>
      </MantineProvider>,
    ),
  };
}

const times = (day: string) =>
  within(screen.getByRole('group', { name: day }))
    .queryAllByDisplayValue(/^\d\d:\d\d$/)
    .map((input) => (input as HTMLInputElement).value);

describe('schedule copying and quick windows', () => {
  afterEach(() => vi.useRealTimers());

  it("copies a day's intervals to the working days, then to every day", async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('textbox', { name: 'Тип номера' }));
    await user.click(await screen.findByRole('option', { name: 'По расписанию' }));
    expect(screen.queryByRole('button', { name: /Копировать на будни/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Добавить интервал: Вторник' }));
    await user.click(screen.getByRole('button', { name: 'Добавить интервал: Вторник' }));
    await user.click(screen.getByRole('button', { name: 'Копировать на будни: Вторник' }));
    for (const day of ['Понедельник', 'Вторник', 'Среда', 'Четверг', 'Пятница'])
      expect(times(day)).toEqual(['08:00', '12:00', '08:00', '12:00']);
    expect(times('Суббота')).toEqual([]);
    expect(times('Воскресенье')).toEqual([]);
    // The copies are copies: changing Monday leaves Tuesday alone.
    await user.click(screen.getByRole('button', { name: 'Удалить интервал (Понедельник, интервал 2)' }));
    expect(times('Понедельник')).toEqual(['08:00', '12:00']);
    expect(times('Вторник')).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: 'Копировать на все дни: Понедельник' }));
    for (const day of ['Вторник', 'Среда', 'Суббота', 'Воскресенье'])
      expect(times(day)).toEqual(['08:00', '12:00']);
  });

  it('fills the start and the end of a temporary phone from now', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T09:15:42Z'));
    const { user } = renderForm();
    await user.click(screen.getByRole('textbox', { name: 'Тип номера' }));
    await user.click(await screen.findByRole('option', { name: 'Временный' }));
    const start = screen.getByLabelText(/Начало/) as HTMLInputElement;
    const end = screen.getByLabelText(/Конец/) as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: '3 часа' }));
    const threeHours = quickWindow('three_hours', new Date('2026-11-23T09:15:42Z'));
    expect([start.value, end.value]).toEqual([threeHours?.start_time, threeHours?.end_time]);
    await user.click(screen.getByRole('button', { name: 'Сегодня до 23:59' }));
    expect(end.value).toBe(quickWindow('today', new Date('2026-11-23T09:15:42Z'))?.end_time);
    expect(screen.queryByText('Укажите время начала и конца.')).not.toBeInTheDocument();
  });
});
