import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guestPass } from '../../../test/admin-fixtures';
import { renderRoute } from '../../../test/render';
import type { CreatedGuestPass } from '../api/guest-passes-api';
import { GuestPassLinkCard } from './guest-pass-link-card';

const created = {
  ...guestPass(7, 'created'),
  token: 'abc',
  url: '/guest/abc',
} as unknown as CreatedGuestPass;

const link = `${window.location.origin}/guest/abc`;

describe('GuestPassLinkCard (issue 41: a guest link is shared, not only copied)', () => {
  afterEach(() => {
    // jsdom has no navigator.share: each test sets its own.
    Reflect.deleteProperty(navigator, 'share');
  });

  it('offers «Поделиться» where the browser can share, and hands it the link and its period', async () => {
    const share = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const { user } = renderRoute(<GuestPassLinkCard pass={created} onDone={vi.fn()} />, {
      path: '/mybarrier',
    });
    expect(screen.getByRole('button', { name: 'Скопировать' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Поделиться' }));
    expect(share).toHaveBeenCalledWith(
      expect.objectContaining({
        url: link,
        text: expect.stringMatching(/^Гостевой пропуск к шлагбауму: .+ — .+\.$/),
      }),
    );
  });

  it('offers only «Скопировать» where the browser cannot share', () => {
    renderRoute(<GuestPassLinkCard pass={created} onDone={vi.fn()} />, { path: '/mybarrier' });
    expect(screen.getByRole('button', { name: 'Скопировать' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Поделиться' })).not.toBeInTheDocument();
  });
});
