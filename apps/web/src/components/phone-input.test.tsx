import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PhoneInput } from './phone-input';

/** A form around the field that shows what it would submit. */
function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <PhoneInput label="Телефон" value={value} onChange={setValue} />
      <output data-testid="submitted">{value}</output>
    </MantineProvider>
  );
}

function setup(initial = '+7') {
  const user = userEvent.setup();
  render(<Harness initial={initial} />);
  return { user, input: screen.getByLabelText('Телефон') as HTMLInputElement };
}

const submitted = () => screen.getByTestId('submitted').textContent;

describe('PhoneInput', () => {
  it('shows the number formatted while it is typed and keeps +7 and ten digits for the form', async () => {
    const { user, input } = setup();
    expect(input).toHaveValue('+7');
    await user.type(input, '916');
    expect(input).toHaveValue('+7 (916');
    await user.type(input, '1234');
    expect(input).toHaveValue('+7 (916) 123-4');
    await user.type(input, '567');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it('reads a number typed with a leading 8 after the +7 already in the field', async () => {
    const { user, input } = setup();
    await user.type(input, '89161234567');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it('reads a number typed with a leading 8 into an empty field', async () => {
    const { user, input } = setup('');
    await user.type(input, '8 916 123 45 67');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it.each([
    '89161234567',
    '+7 (916) 123-45-67',
    '8 916 123 45 67',
    '7-916-123-45-67',
    '9161234567',
    '+79161234567',
  ])('takes a pasted %s whole, after the +7 already in the field', async (pasted) => {
    const { user, input } = setup();
    await user.click(input);
    await user.paste(pasted);
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it('replaces a complete number with a pasted one', async () => {
    const { user, input } = setup('+79001112233');
    await user.click(input);
    await user.paste('8 916 123-45-67');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it('takes a number pasted over a selection', async () => {
    const { user, input } = setup('+79001112233');
    await user.tripleClick(input);
    await user.paste('89161234567');
    expect(submitted()).toBe('+79161234567');
  });

  it('stops at ten digits', async () => {
    const { user, input } = setup('+79161234567');
    await user.type(input, '8');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it('deletes digits with backspace, also over brackets, spaces and dashes', async () => {
    const { user, input } = setup('+7916123');
    expect(input).toHaveValue('+7 (916) 123');
    await user.type(input, '{Backspace}');
    expect(input).toHaveValue('+7 (916) 12');
    await user.type(input, '{Backspace}{Backspace}');
    expect(input).toHaveValue('+7 (916');
    expect(submitted()).toBe('+7916');
  });

  it('keeps every digit when the same number is typed over a selection', async () => {
    const { user, input } = setup('+79161234567');
    await user.tripleClick(input);
    await user.keyboard('9161234567');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    expect(submitted()).toBe('+79161234567');
  });

  it('ignores letters', async () => {
    const { user, input } = setup();
    await user.type(input, 'abc9');
    expect(input).toHaveValue('+7 (9');
    expect(submitted()).toBe('+79');
  });

  // Issue 41 major 1: a tap on or left of «+7» put the caret before it, and 9161234567 became +7 (971) 612-34-56.
  it.each([0, 1, 2])(
    'a caret put at %i (on or left of +7) goes after it, and the typed number is whole',
    async (at) => {
      const { user, input } = setup();
      // A tap at that character: the browser puts the caret there, the field moves it after «+7».
      await user.pointer({ target: input, offset: at, keys: '[MouseLeft]' });
      await waitFor(() => expect(input.selectionStart).toBe(2));
      await user.keyboard('9161234567');
      expect(input).toHaveValue('+7 (916) 123-45-67');
      expect(submitted()).toBe('+79161234567');
    },
  );

  it.each(['{Home}', '{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}'])(
    '%s stops after «+7» and what is typed then goes first in the number',
    async (keys) => {
      const { user, input } = setup('+7123');
      await user.click(input);
      await user.keyboard(keys);
      expect(input.selectionStart).toBe(2);
      await user.keyboard('9');
      expect(submitted()).toBe('+79123');
    },
  );

  it('a key typed in front of +7 anyway joins the number, never the country code', async () => {
    const { user, input } = setup();
    await user.type(input, '9161234567', { initialSelectionStart: 0, initialSelectionEnd: 0 });
    expect(input).toHaveValue('+7 (916) 123-45-67');
  });

  it('backspace right after +7 leaves it, and a digit typed into the middle of a full number is refused', async () => {
    const { user, input } = setup('+79161234567');
    await user.click(input);
    input.setSelectionRange(4, 4);
    await user.keyboard('{Backspace}{Backspace}');
    expect(input).toHaveValue('+7 (916) 123-45-67');
    input.setSelectionRange(6, 6);
    await user.keyboard('5');
    expect(submitted()).toBe('+79161234567');
  });

  it.each(['+79161234567', '89161234567', '8 916 123-45-67'])(
    'an autofilled %s (the whole value replaced) is read whole',
    async (filled) => {
      const { user, input } = setup('+7');
      await user.click(input);
      await user.tripleClick(input);
      await user.keyboard(filled);
      expect(submitted()).toBe('+79161234567');
    },
  );

  it.each(['89161234567', '79161234567', '+79161234567'])(
    'the browser’s autofill of %s (the value set at once) gives the whole number',
    (filled) => {
      const { input } = setup('+7');
      fireEvent.change(input, { target: { value: filled } });
      expect(input).toHaveValue('+7 (916) 123-45-67');
      expect(submitted()).toBe('+79161234567');
    },
  );
});
