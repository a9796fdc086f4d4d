import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PhoneCard } from './phone-card';

describe('PhoneCard', () => {
  it('shows a phone name typed by someone else isolated in <bdi>, without its bidi override (issue 29 part 6)', () => {
    render(
      <MantineProvider>
        <PhoneCard
          phone={{
            id: 1,
            name: 'Няня\u202e 5 .вк',
            phone: '+79001234567',
            type: 'permanent',
            status: 'ok',
            is_active: true,
            barrier: 1,
            user: 1,
            start_time: null,
            end_time: null,
            schedule: null,
            created_at: '2026-11-26T10:00:00+03:00',
            updated_at: '2026-11-26T10:00:00+03:00',
          }}
        />
      </MantineProvider>,
    );
    const name = screen.getByText('Няня 5 .вк');
    expect(name.tagName).toBe('BDI');
    expect(screen.getByTestId('phone-card').textContent).not.toContain('\u202e');
  });
});
