import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { page } from '../../../test/admin-fixtures';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { wholeText } from '../../../test/text-matchers';
import { userBarrier } from '../../../test/user-fixtures';
import { BarriersRoute } from './barriers';

const firstPage = Array.from({ length: 5 }, (_, index) => ({
  ...userBarrier,
  id: index + 1,
  address: `ул Ленина, д ${index + 1}`,
}));

describe('/barriers', () => {
  it('lists my barriers 5 per page with "N / M" paging and the address sort cycle', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/my/': ({ query }) =>
        page('barriers', query.get('page') === '2' ? [{ ...userBarrier, id: 6 }] : firstPage, 6, 1, 5),
    });
    const { user } = renderRoute(<BarriersRoute />, { path: '/barriers' });
    expect(await screen.findByText('ул Ленина, д 1')).toBeInTheDocument();
    expect(screen.getAllByTestId('barrier-item')).toHaveLength(5);
    expect(screen.getAllByText(wholeText('Администратор: Анна Админова'))).toHaveLength(5);
    const first = server.callsTo('GET /api/barriers/my/')[0];
    expect(first?.query.get('page')).toBe('1');
    expect(first?.query.get('page_size')).toBe('5');
    expect(first?.query.has('ordering')).toBe(false);
    expect(first?.query.has('address')).toBe(false);
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 2');

    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(await screen.findByText(userBarrier.address)).toBeInTheDocument();
    expect(screen.getByTestId('pager-position')).toHaveTextContent('2 / 2');
    expect(server.callsTo('GET /api/barriers/my/').at(-1)?.query.get('page')).toBe('2');

    await user.click(screen.getByRole('button', { name: 'Сортировка: нет' }));
    await screen.findByRole('button', { name: 'Сортировка: адрес А→Я' });
    await waitFor(() =>
      expect(server.callsTo('GET /api/barriers/my/').at(-1)?.query.get('ordering')).toBe('address'),
    );
    // A new order starts again at the first page.
    expect(server.callsTo('GET /api/barriers/my/').at(-1)?.query.get('page')).toBe('1');
    await user.click(screen.getByRole('button', { name: 'Сортировка: адрес А→Я' }));
    await screen.findByRole('button', { name: 'Сортировка: адрес Я→А' });
    await waitFor(() =>
      expect(server.callsTo('GET /api/barriers/my/').at(-1)?.query.get('ordering')).toBe('-address'),
    );
    await user.click(screen.getByRole('button', { name: 'Сортировка: адрес Я→А' }));
    await screen.findByRole('button', { name: 'Сортировка: нет' });
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 2');
    expect(server.callsTo('GET /api/barriers/my/').map((call) => call.query.get('ordering'))).toEqual([
      null,
      null,
      'address',
      '-address',
    ]);
  });

  it('searches public barriers by address and says what to do when nothing matches', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/my/': page('barriers', firstPage, 5, 1, 5),
      'GET /api/barriers/': ({ query }) =>
        query.get('address') === 'Арбат'
          ? page('barriers', [userBarrier], 1, 1, 5)
          : page('barriers', [], 0, 1, 5),
    });
    const { user } = renderRoute(<BarriersRoute />, { path: '/barriers' });
    await screen.findByText('ул Ленина, д 1');
    await user.click(screen.getByRole('radio', { name: 'Поиск' }));
    await user.type(screen.getByLabelText('Поиск по адресу'), 'Арбат');
    expect(await screen.findByText(userBarrier.address)).toBeInTheDocument();
    const search = server.callsTo('GET /api/barriers/').at(-1);
    expect(search?.query.get('address')).toBe('Арбат');
    expect(search?.query.get('page_size')).toBe('5');

    await user.type(screen.getByLabelText('Поиск по адресу'), 'ская');
    // The spec's words first, on a line of their own; what to do next after them (issue 41 item 1).
    expect(
      (
        await screen.findByText(
          'По этому адресу шлагбаумов не нашлось. Проверьте адрес или попросите администратора шлагбаума пригласить вас по номеру телефона.',
        )
      ).previousElementSibling,
    ).toHaveTextContent(/^Нет результатов$/);
    expect(server.callsTo('GET /api/barriers/').at(-1)?.query.get('address')).toBe('Арбатская');
  });

  it('opens /mybarrier when check_access says has_access, else /barrier-details', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/my/': page('barriers', firstPage, 5, 1, 5),
      'GET /api/barriers/2/check_access/': { has_access: true },
      'GET /api/barriers/3/check_access/': { has_access: false },
    });
    const { user, router } = renderRoute(<BarriersRoute />, { path: '/barriers' });
    await user.click(await screen.findByText('ул Ленина, д 2'));
    expect(await screen.findByText('Screen: /mybarrier')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"barrier_id":2}');
    expect(server.callsTo('GET /api/barriers/2/check_access/')).toHaveLength(1);

    await router.navigate(-1);
    await user.click(await screen.findByText('ул Ленина, д 3'));
    expect(await screen.findByText('Screen: /barrier-details')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"barrier_id":3}');
  });

  it('stays on the list with "Ошибка при проверке доступа." when the access check fails', async () => {
    signIn();
    mockApi({
      'GET /api/barriers/my/': page('barriers', firstPage, 5, 1, 5),
      'GET /api/barriers/4/check_access/': [500, {}],
    });
    const { user } = renderRoute(<BarriersRoute />, { path: '/barriers' });
    await user.click(await screen.findByText('ул Ленина, д 4'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при проверке доступа.');
    expect(screen.queryByText(/Screen:/)).not.toBeInTheDocument();
  });

  it('shows the load failure of the list', async () => {
    signIn();
    mockApi({ 'GET /api/barriers/my/': networkFailure });
    renderRoute(<BarriersRoute />, { path: '/barriers' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка сети');
  });
});
