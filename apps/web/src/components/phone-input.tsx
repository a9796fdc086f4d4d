import { TextInput, type TextInputProps } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { formatPhoneForInput } from '../lib/phone';
import { editPhone, firstCaretPosition } from '../lib/phone-edit';

type PhoneInputProps = Omit<TextInputProps, 'onChange' | 'value'> & {
  /** The number as it is sent: `+7` and up to 10 digits (`+7XXXXXXXXXX` once complete), or empty. */
  value: string;
  onChange: (value: string) => void;
};

/** The caret position in `shown` just after the number's `digits`-th digit (`+7` not counted). */
function caretAfterDigits(shown: string, digits: number): number {
  let index = firstCaretPosition(shown);
  for (let left = digits; left > 0 && index < shown.length; index++)
    if (/\d/.test(shown[index] ?? '')) left--;
  return index;
}

/** Moves a caret standing in or before `+7` to just after it (a selection reaching past it is left alone). */
function keepCaretAfterPrefix(input: HTMLInputElement) {
  const first = firstCaretPosition(input.value);
  // A caret before it has its end there too; a selection from before it to past it is left as it is.
  if ((input.selectionEnd ?? first) < first) input.setSelectionRange(first, first);
}

/**
 * The one phone field of the app (spec.md section 5): whatever is typed or pasted (`89161234567`,
 * `+7 (916) 123-45-67`, `8 916 123 45 67`, `7-916-123-45-67`, `9161234567`) becomes `+7` and 10 digits. It shows
 * `+7 (916) 123-45-67` while it holds `+79161234567` for the form.
 * «+7» cannot be typed into or before (issue 41 major 1): a tap, a click, Home or ← there puts the caret after
 * it, and a digit that lands in front of it anyway (a screen reader's caret, a keyboard's own) joins the number,
 * never the country code; a deletion inside it changes nothing (lib/phone-edit.ts). A paste or an autofill of a
 * whole number is read whole, wherever the caret stood.
 */
export function PhoneInput({ value, onChange, ...props }: PhoneInputProps) {
  const shown = formatPhoneForInput(value);

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const edit = editPhone(shown, input.value);
    // The field shows the new number at once, the caret after the digit typed (formatting moves the characters
    // around it); React finds the text already there and leaves it, caret included.
    input.value = formatPhoneForInput(edit.value);
    const position = caretAfterDigits(input.value, edit.caretDigits);
    input.setSelectionRange(position, position);
    onChange(edit.value);
  }

  return (
    <TextInput
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      placeholder="+7 (900) 000-00-00"
      {...props}
      value={shown}
      onChange={handleChange}
      // Every move of the caret (a tap, a click, Home, ←) ends with it after «+7».
      onSelect={(event) => keepCaretAfterPrefix(event.currentTarget)}
    />
  );
}
