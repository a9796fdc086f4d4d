import { TextInput, type TextInputProps } from '@mantine/core';
import { type ChangeEvent, type ClipboardEvent, useLayoutEffect, useRef } from 'react';
import { formatPhoneForInput, normalizePhone } from '../lib/phone';

type PhoneInputProps = Omit<TextInputProps, 'onChange' | 'value' | 'onPaste'> & {
  /** The number as it is sent: `+7` and up to 10 digits (`+7XXXXXXXXXX` once complete), or empty. */
  value: string;
  onChange: (value: string) => void;
};

/** A pasted text with this many digits is a whole number: it replaces the field instead of joining it. */
const WHOLE_NUMBER_DIGITS = 10;

const countDigits = (text: string) => text.replace(/\D/g, '').length;

/** The caret position in `shown` just after its `digits`-th digit (the `7` of `+7` counts). */
function caretAfterDigits(shown: string, digits: number): number {
  if (digits <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < shown.length; index += 1) {
    if (/\d/.test(shown[index] ?? '')) seen += 1;
    if (seen === digits) return index + 1;
  }
  return shown.length;
}

/**
 * The one phone field of the app (spec.md section 5): whatever is typed or pasted (`89161234567`,
 * `+7 (916) 123-45-67`, `8 916 123 45 67`, `7-916-123-45-67`, `9161234567`) becomes `+7` and 10 digits. It shows
 * `+7 (916) 123-45-67` while it holds `+79161234567` for the form.
 */
export function PhoneInput({ value, onChange, ...props }: PhoneInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  // Where the caret goes after the next render, counted in digits (formatting moves the characters around it).
  const pendingCaret = useRef<number | null>(null);
  const shown = formatPhoneForInput(value);

  useLayoutEffect(() => {
    const input = inputRef.current;
    const digits = pendingCaret.current;
    pendingCaret.current = null;
    if (!input || digits === null || document.activeElement !== input) return;
    const position = caretAfterDigits(input.value, digits);
    input.setSelectionRange(position, position);
  });

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const raw = input.value;
    const caret = input.selectionStart ?? raw.length;
    const isAtEnd = caret >= raw.length;
    let next = normalizePhone(raw);
    let digitsBeforeCaret = countDigits(raw.slice(0, caret));
    // Backspace over a bracket, space or dash changes no digit: it takes the digit before it instead. Only a
    // single separator gone counts (a whole number typed over the same number is not a backspace).
    const isSeparatorDeleted = raw.length === shown.length - 1 && countDigits(raw) === countDigits(shown);
    if (next === value && isSeparatorDeleted && digitsBeforeCaret > 1) {
      const cut = caretAfterDigits(raw, digitsBeforeCaret);
      next = normalizePhone(raw.slice(0, cut - 1) + raw.slice(cut));
      digitsBeforeCaret -= 1;
    }
    // A number typed or filled in without a plus (`8…`, `9…`) gains or loses its first digit: the end is safe.
    pendingCaret.current =
      isAtEnd || !raw.trim().startsWith('+') ? Number.POSITIVE_INFINITY : digitsBeforeCaret;
    onChange(next);
  }

  function handlePaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (countDigits(pasted) < WHOLE_NUMBER_DIGITS) return;
    event.preventDefault();
    pendingCaret.current = Number.POSITIVE_INFINITY;
    onChange(normalizePhone(pasted));
  }

  return (
    <TextInput
      ref={inputRef}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      placeholder="+7 (900) 000-00-00"
      {...props}
      value={shown}
      onChange={handleChange}
      onPaste={handlePaste}
    />
  );
}
