import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { guestPass } from '../../../test/admin-fixtures';
import { renderRoute } from '../../../test/render';
import type { GuestPass } from '../api/guest-passes-api';
import { GuestPassCard } from './guest-pass-card';

/** The resident Анна Жилец's own pass (ids of the administrator's sample, names of this test). */
const pass = (extra: Partial<GuestPass> = {}): GuestPass =>
  guestPass(7, 'created', {
    user_full_name: 'Анна Жилец',
    created_by: 21,
    created_by_full_name: 'Анна Жилец',
    created_by_phone: '+7 *** ***-45-67',
    ...extra,
  }) as GuestPass;

describe('GuestPassCard (issue 32 item 7: a pass names its resident and its maker)', () => {
  it('names the resident and the maker', () => {
    renderRoute(
      <GuestPassCard
        pass={pass({ created_by: 1, created_by_full_name: 'Ольга Админова' })}
        onRevoke={vi.fn()}
      />,
      { path: '/mybarrier' },
    );
    expect(screen.getByTestId('guest-pass-user')).toHaveTextContent(/^Для: Анна Жилец$/);
    expect(screen.getByTestId('guest-pass-maker')).toHaveTextContent(/^Автор: Ольга Админова$/);
  });

  it('shows the masked number, unbroken, of a person without a name, and no id', () => {
    renderRoute(
      <GuestPassCard
        pass={pass({ user_full_name: null, created_by_full_name: '', created_by_phone: '+7 *** ***-00-01' })}
        onRevoke={vi.fn()}
      />,
      { path: '/mybarrier' },
    );
    expect(screen.getByTestId('guest-pass-user').textContent).toBe('Для: +7\u00a0***\u00a0***-45-67');
    expect(screen.getByTestId('guest-pass-maker').textContent).toBe('Автор: +7\u00a0***\u00a0***-00-01');
    expect(screen.getByTestId('guest-pass-card').textContent).not.toMatch(/№|пользователь/);
  });

  it('says nothing of a maker whose account is gone', () => {
    renderRoute(
      <GuestPassCard
        pass={pass({ created_by: null, created_by_full_name: null, created_by_phone: null })}
        onRevoke={vi.fn()}
      />,
      { path: '/mybarrier' },
    );
    expect(screen.getByTestId('guest-pass-user')).toHaveTextContent('Для: Анна Жилец');
    expect(screen.queryByTestId('guest-pass-maker')).toBeNull();
  });
});
