import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../provider';
import { RouteError } from './route-error';

function Broken(): never {
  throw new Error('Cannot read properties of undefined');
}

const renderFailing = (route: Parameters<typeof createMemoryRouter>[0][number]) => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const router = createMemoryRouter([{ ErrorBoundary: RouteError, children: [route] }], {
    initialEntries: ['/x'],
  });
  render(
    <AppProvider env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
};

describe('the route error screen (issue 32 item 2)', () => {
  it('a screen that throws shows a Russian screen with «Повторить» and a way home, no English', async () => {
    renderFailing({ path: '/x', Component: Broken });
    const error = await screen.findByTestId('route-error');
    expect(error).toHaveTextContent('Экран не открылся');
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'На главный экран' })).toHaveAttribute('href', '/');
    expect(document.body.textContent).not.toMatch(/Unexpected|developer|Cannot read/);
  });

  it('a lazy screen whose code cannot load says «Нет связи»', async () => {
    renderFailing({
      path: '/x',
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    });
    expect(await screen.findByTestId('route-error')).toHaveTextContent('Нет связи');
    expect(document.body.textContent).not.toMatch(/Failed|module/);
  });
});
