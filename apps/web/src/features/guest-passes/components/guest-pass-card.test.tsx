import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../../test/render';
import type { GuestPass } from '../api/guest-passes-api';
import { GuestPassCard } from './guest-pass-card';

const pass = (extra: Partial<GuestPass> = {}): GuestPass => ({
  id: 7,
  barrier: 8,
  user: 21,
  user_full_name: 'Анна Жилец',
  user_phone: '+7 *** ***-45-67',
  created_by: 21,
  created_by_full_name: 'Анна Жилец',
  created_by_phone: '+7 *** ***-45-67',
  note: '',
  start: '2026-11-21T12:00:00+03:00',
  end: '2026-11-21T15:00:00+03:00',
  expires_at: '2026-11-21T15:00:00+03:00',
  status: 'created',
  used_phone: null,
  phone: null,
  used_at: null,
  revoked_at: null,
  created_at: '2026-11-21T11:00:00+03:00',
  ...extra,
});

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
