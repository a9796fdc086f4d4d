import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { StaffSection } from './staff-section';

const member = (id: number, name: string, role = 'operator') => ({
  id,
  full_name: name,
  phone: `+7900000000${id}`,
  role,
  created_at: '2026-11-21T11:00:00+03:00',
});
const staff = { staff: [member(7, 'Олег Операторов'), member(8, 'Дина Диспетчерова', 'dispatcher')] };
const refused = (code: string): [number, unknown] => [409, { detail: 'x', code }];

/** Issue 32 item 7: a red line from one step goes when the next step succeeds. */
describe('StaffSection messages', () => {
  it('clears a failed add once a role change succeeds, and a failed role change once an add succeeds', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/staff/': staff,
      'POST /api/admin/barriers/5/staff/': refused('staff_already_added'),
      'PATCH /api/admin/barriers/5/staff/7/': { ...member(7, 'Олег Операторов'), role: 'manager' },
    });
    const { user } = renderRoute(<StaffSection barrierId={5} />, { path: '/admin-barrier-page' });
    const section = await screen.findByTestId('staff-section');
    await screen.findByText('Олег Операторов');
    await user.type(within(section).getByLabelText('Номер телефона администратора'), '9001112233');
    await user.click(within(section).getByRole('button', { name: 'Добавить' }));
    expect(await within(section).findByRole('alert')).toBeInTheDocument();

    const [olegRole] = within(section).getAllByRole('textbox', { name: 'Роль' });
    await user.click(olegRole as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'Управляющий' }));
    expect(await within(section).findByText('Роль изменена.')).toBeInTheDocument();
    expect(within(section).queryByRole('alert')).toBeNull();

    // Now the other way round: a role change fails, then an add succeeds.
    server.on({
      'PATCH /api/admin/barriers/5/staff/8/': refused('staff_not_found'),
      'POST /api/admin/barriers/5/staff/': [201, member(9, 'Новый Управляющий', 'manager')],
    });
    const dinaRole = within(section).getAllByRole('textbox', { name: 'Роль' })[1] as HTMLElement;
    await user.click(dinaRole);
    await user.click(await screen.findByRole('option', { name: 'Оператор' }));
    expect(await within(section).findByRole('alert')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('Номер телефона администратора'), '9001112244');
    await user.click(within(section).getByRole('button', { name: 'Добавить' }));
    expect(await within(section).findByText('Администратор Новый Управляющий добавлен.')).toBeInTheDocument();
    expect(within(section).queryByRole('alert')).toBeNull();
  });

  it('opens the removal of another administrator without the last removal’s failure', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/staff/': staff,
      'DELETE /api/admin/barriers/5/staff/7/': [500, { detail: 'x' }],
    });
    const { user } = renderRoute(<StaffSection barrierId={5} />, { path: '/admin-barrier-page' });
    await screen.findByText('Олег Операторов');
    const removeButtons = () => screen.getAllByRole('button', { name: 'Удалить' });
    await user.click(removeButtons()[0] as HTMLElement);
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Да, удалить' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await user.click(removeButtons()[1] as HTMLElement);
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Дина Диспетчерова');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
