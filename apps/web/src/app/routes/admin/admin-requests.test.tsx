import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { accessRequest, page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminRequestsRoute } from './admin-requests';

/** jsdom has no layout: this observer reports every observed element as on screen at once. */
function stubIntersectionObserver() {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as never);
      }
      disconnect() {}
      unobserve() {}
    },
  );
}

describe('/admin-requests', () => {
  it('loads the next page near the bottom and stops after a short page', async () => {
    signIn();
    stubIntersectionObserver();
    const server = mockApi({
      'GET /api/admin/access_requests/my/': ({ query }) => {
        const pageNumber = Number(query.get('page'));
        const count = pageNumber === 1 ? 10 : 3;
        const items = Array.from({ length: count }, (_, index) => accessRequest(pageNumber * 100 + index));
        return { ...page('access_requests', items, 13, pageNumber), current_page: pageNumber };
      },
    });
    renderRoute(<AdminRequestsRoute />, { path: '/admin-requests' });
    expect(await screen.findByText('Все заявки загружены')).toBeInTheDocument();
    expect(screen.getAllByTestId('access-request')).toHaveLength(13);
    // The list's pages; the counter on "Заявки" asks for the pending ones apart (status=pending).
    const calls = server
      .callsTo('GET /api/admin/access_requests/my/')
      .filter((call) => call.query.get('status') !== 'pending');
    expect(calls.map((call) => call.query.get('page'))).toEqual(['1', '2']);
    expect(calls[0]?.query.get('type')).toBe('incoming');
    expect(calls[0]?.query.get('page_size')).toBe('10');
  });

  it('accepts and rejects incoming requests', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/access_requests/my/': page('access_requests', [accessRequest(1), accessRequest(2)]),
      'PATCH /api/admin/access_requests/1/': accessRequest(1, 'accepted'),
      'PATCH /api/admin/access_requests/2/': [500, {}],
    });
    const { user } = renderRoute(<AdminRequestsRoute />, { path: '/admin-requests' });
    const [first] = await screen.findAllByRole('button', { name: 'Принять' });
    await user.click(first as HTMLElement);
    expect(server.callsTo('PATCH /api/admin/access_requests/1/')[0]?.body).toEqual({ status: 'accepted' });
    const rejects = screen.getAllByRole('button', { name: 'Отклонить' });
    await user.click(rejects[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Отклонить запрос на доступ?');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(server.callsTo('PATCH /api/admin/access_requests/2/')).toHaveLength(0);
    await user.click(rejects[1] as HTMLElement);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, отклонить' }),
    );
    expect(await screen.findByText('Ошибка при обновлении')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/admin/access_requests/2/')[0]?.body).toEqual({ status: 'rejected' });
  });

  it('cancels an invitation on the outgoing tab, hiding it', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/access_requests/my/': ({ query }) =>
        query.get('type') === 'outgoing'
          ? page('access_requests', [{ ...accessRequest(3), type: 'outgoing', initiator: 'admin' }])
          : page('access_requests', []),
      'PATCH /api/admin/access_requests/3/': accessRequest(3, 'cancelled'),
    });
    const { user } = renderRoute(<AdminRequestsRoute />, { path: '/admin-requests' });
    // The spec's words first, on a line of their own; what to do next after them (issue 41 item 1).
    expect(
      (
        await screen.findByText(
          'Входящих заявок нет. Здесь появятся приглашения и заявки, на которые нужно ответить.',
        )
      ).previousElementSibling,
    ).toHaveTextContent(/^Нет данных$/);
    await user.click(screen.getByRole('tab', { name: 'Исходящие' }));
    await user.click(await screen.findByRole('button', { name: 'Отменить' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, отменить' }));
    expect(server.callsTo('PATCH /api/admin/access_requests/3/')[0]?.body).toEqual({
      status: 'cancelled',
      hidden_for_user: true,
    });
  });
});
