import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UserText } from './user-text';

describe('UserText', () => {
  it('isolates a name with a right-to-left override inside <bdi> and drops the override', () => {
    const { container } = render(
      <p>
        Житель <UserText>{'Иван\u202eвонавИ 🔑'}</UserText>, кв. 5
      </p>,
    );
    const isolated = container.querySelector('bdi');
    expect(isolated).not.toBeNull();
    expect(isolated?.textContent).toBe('ИванвонавИ');
    // Nothing typed is left outside the isolation.
    expect(container.querySelector('p')?.textContent).toBe('Житель ИванвонавИ, кв. 5');
  });

  it('keeps a device reply’s own characters and drops only the invisible ones', () => {
    const { container } = render(<UserText verbatim>{'Pwd=1234 @OK\u2066\u200b'}</UserText>);
    expect(container.querySelector('bdi')?.textContent).toBe('Pwd=1234 @OK');
  });

  it('renders nothing for an empty value', () => {
    const { container } = render(<UserText>{null}</UserText>);
    expect(container.innerHTML).toBe('');
  });
});
