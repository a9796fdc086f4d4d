import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { barrier, page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminBarriersRoute } from './admin-barriers';

const barriers = Array.from({ length: 5 }, (_, index) => ({
  ...barrier,
  id: index + 1,
  address: `ул Ленина, д ${index + 1}`,
}));

describe('/admin-barriers', () => {
  it('lists 5 per page, pages, sorts by address in a cycle and opens a barrier', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/my/': ({ query }) =>
        page(
          'barriers',
          query.get('page') === '2' ? [{ ...barrier, id: 9, address: 'ул Мира, д 9' }] : barriers,
          6,
        ),
    });
    const { user } = renderRoute(<AdminBarriersRoute />, { path: '/admin-barriers' });
    expect(await screen.findByText('ул Ленина, д 1')).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/barriers/my/')[0]?.query.get('page_size')).toBe('5');
    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(screen.getByTestId('pager-position')).toHaveTextContent('2 / 2');
    expect(await screen.findByText('ул Мира, д 9')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Сортировка: нет' }));
    await user.click(await screen.findByRole('button', { name: 'Сортировка: адрес А→Я' }));
    await user.click(await screen.findByRole('button', { name: 'Сортировка: адрес Я→А' }));
    await screen.findByRole('button', { name: 'Сортировка: нет' });
    expect(server.callsTo('GET /api/admin/barriers/my/').map((call) => call.query.get('ordering'))).toEqual(
      expect.arrayContaining(['address', '-address']),
    );

    await user.click(await screen.findByText('ул Ленина, д 3'));
    expect(await screen.findByText('Screen: /admin-barrier-page')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"barrier_id":3');
  });

  it('flags a barrier whose device does not answer or refuses its password', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/my/': page('barriers', [
        { ...barrier, id: 1, address: 'ул Ленина, д 1', device_state: 'not_responding' },
        { ...barrier, id: 2, address: 'ул Ленина, д 2', device_state: 'wrong_password' },
        { ...barrier, id: 3, address: 'ул Ленина, д 3', device_state: 'waiting' },
        { ...barrier, id: 4, address: 'ул Ленина, д 4', device_state: 'ok' },
      ]),
    });
    renderRoute(<AdminBarriersRoute />, { path: '/admin-barriers' });
    const item = async (address: string) => (await screen.findByText(address)).closest('li') as HTMLElement;
    expect(within(await item('ул Ленина, д 1')).getByTestId('device-problem')).toHaveTextContent(
      'Устройство не отвечает',
    );
    expect(within(await item('ул Ленина, д 2')).getByTestId('device-problem')).toHaveTextContent(
      'Неверный пароль устройства',
    );
    expect(within(await item('ул Ленина, д 3')).queryByTestId('device-problem')).not.toBeInTheDocument();
    expect(within(await item('ул Ленина, д 4')).queryByTestId('device-problem')).not.toBeInTheDocument();
  });

  it('goes to the create screen, and says so when there is nothing', async () => {
    signIn();
    mockApi({ 'GET /api/admin/barriers/my/': page('barriers', []) });
    const { user } = renderRoute(<AdminBarriersRoute />, { path: '/admin-barriers' });
    // The spec's words first, on a line of their own; what to do next after them (issue 41 item 1).
    expect(
      (await screen.findByText('Шлагбаумов пока нет. Добавьте первый кнопкой «Создать шлагбаум».'))
        .previousElementSibling,
    ).toHaveTextContent(/^Нет данных$/);
    await user.click(screen.getByRole('button', { name: 'Создать шлагбаум' }));
    expect(await screen.findByText('Screen: /create-barrier')).toBeInTheDocument();
  });
});
