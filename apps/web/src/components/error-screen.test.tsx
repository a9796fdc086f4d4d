import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorScreen, mayRetryOnline, ONLINE_RETRY_MS } from './error-screen';

const renderWithProviders = (element: React.ReactElement) =>
  render(<MantineProvider>{element}</MantineProvider>);

describe('ErrorScreen «Нет связи»', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shown while online (the load raced the network), loads the page again shortly, a few times a minute', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const first = renderWithProviders(<ErrorScreen kind="network" />);
    expect(screen.getByRole('heading', { name: 'Нет связи' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(ONLINE_RETRY_MS));
    expect(reload).toHaveBeenCalledTimes(1);
    first.unmount();
    for (let shown = 2; shown <= 4; shown++) {
      const again = renderWithProviders(<ErrorScreen kind="network" />);
      act(() => vi.advanceTimersByTime(ONLINE_RETRY_MS));
      again.unmount();
    }
    // Three a minute, not a loop against a server that is down.
    expect(reload).toHaveBeenCalledTimes(3);
  });

  it('shown offline, waits for the network instead', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithProviders(<ErrorScreen kind="network" />);
    act(() => vi.advanceTimersByTime(ONLINE_RETRY_MS * 5));
    expect(reload).not.toHaveBeenCalled();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('allows a retry again a minute after the last ones', () => {
    expect([mayRetryOnline(0), mayRetryOnline(1), mayRetryOnline(2), mayRetryOnline(3)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(mayRetryOnline(60_001)).toBe(true);
  });
});
