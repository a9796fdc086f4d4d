import { TextInput, type TextInputProps } from '@mantine/core';
import {
  type ChangeEvent,
  type ClipboardEvent,
  type KeyboardEvent,
  type SyntheticEvent,
  useLayoutEffect,
  useRef,
} from 'react';
import { formatPhoneForInput, normalizePhone } from '../lib/phone';
import { editPhone, firstCaretPosition } from '../lib/phone-edit';
import { TextLines } from './text-lines';

type PhoneInputProps = Omit<TextInputProps, 'onChange' | 'value' | 'onPaste'> & {
  /** The number as it is sent: `+7` and up to 10 digits (`+7XXXXXXXXXX` once complete), or empty. */
  value: string;
  onChange: (value: string) => void;
};

/** A pasted text with this many digits is a whole number: it replaces the field instead of joining it. */
const WHOLE_NUMBER_DIGITS = 10;

const countDigits = (text: string) => text.replace(/\D/g, '').length;

/** The caret position in `shown` just after the number's `digits`-th digit (`+7` not counted). */
function caretAfterDigits(shown: string, digits: number): number {
  const first = firstCaretPosition(shown);
  if (digits <= 0) return first;
  let seen = 0;
  for (let index = first; index < shown.length; index += 1) {
    if (/\d/.test(shown[index] ?? '')) seen += 1;
    if (seen === digits) return index + 1;
  }
  return shown.length;
}

/** Moves a caret standing in or before `+7` to just after it (a selection reaching past it is left alone). */
function keepCaretAfterPrefix(input: HTMLInputElement) {
  const first = firstCaretPosition(input.value);
  const { selectionStart, selectionEnd } = input;
  if (selectionStart === null || selectionEnd === null || document.activeElement !== input) return;
  if (selectionEnd < first) input.setSelectionRange(first, first);
  else if (selectionStart < first && selectionStart === selectionEnd) input.setSelectionRange(first, first);
}

/**
 * The one phone field of the app (spec.md section 5): whatever is typed or pasted (`89161234567`,
 * `+7 (916) 123-45-67`, `8 916 123 45 67`, `7-916-123-45-67`, `9161234567`) becomes `+7` and 10 digits. It shows
 * `+7 (916) 123-45-67` while it holds `+79161234567` for the form.
 * «+7» cannot be typed into or before (issue 41 major 1): a tap, a click, Home or ← there puts the caret after
 * it, and a digit that lands in front of it anyway (a screen reader's caret, a keyboard's own) joins the number,
 * never the country code (lib/phone-edit.ts).
 */
export function PhoneInput({ value, onChange, onFocus, onKeyDown, error, ...props }: PhoneInputProps) {
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
    const edit = editPhone(shown, event.currentTarget.value);
    pendingCaret.current = edit.caretDigits;
    onChange(edit.value);
    // The number did not change (a letter, a key in front of +7): the shown text goes back at once, caret with it.
    if (edit.value === value) {
      const input = event.currentTarget;
      input.value = shown;
      const position = caretAfterDigits(shown, edit.caretDigits);
      input.setSelectionRange(position, position);
    }
  }

  function handlePaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (countDigits(pasted) < WHOLE_NUMBER_DIGITS) return;
    event.preventDefault();
    pendingCaret.current = Number.POSITIVE_INFINITY;
    onChange(normalizePhone(pasted));
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    onKeyDown?.(event);
    const input = event.currentTarget;
    const first = firstCaretPosition(input.value);
    const caret = input.selectionStart ?? 0;
    const collapsed = caret === input.selectionEnd;
    const toStart = event.key === 'Home' || event.key === 'ArrowUp' || event.key === 'PageUp';
    const leftOfPrefix =
      collapsed && caret <= first && (event.key === 'ArrowLeft' || event.key === 'Backspace');
    if (first === 0 || event.shiftKey || event.altKey || !(toStart || leftOfPrefix)) return;
    event.preventDefault();
    input.setSelectionRange(first, first);
  }

  /** After a tap or a click the browser places the caret: it is moved once the browser is done. */
  function handlePointer(event: SyntheticEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    keepCaretAfterPrefix(input);
    setTimeout(() => keepCaretAfterPrefix(input), 0);
  }

  return (
    <TextInput
      ref={inputRef}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      placeholder="+7 (900) 000-00-00"
      {...props}
      // A format message: the spec's words, then an example on a line of its own (components/text-lines.tsx).
      error={typeof error === 'string' ? <TextLines text={error} /> : error}
      value={shown}
      onChange={handleChange}
      onPaste={handlePaste}
      onKeyDown={handleKeyDown}
      onFocus={(event) => {
        onFocus?.(event);
        handlePointer(event);
      }}
      onClick={handlePointer}
      onSelect={(event) => keepCaretAfterPrefix(event.currentTarget)}
    />
  );
}
