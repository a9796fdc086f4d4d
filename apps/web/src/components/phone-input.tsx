import { TextInput, type TextInputProps } from '@mantine/core';
import { normalizeLoginPhone } from '../lib/phone';

type PhoneInputProps = Omit<TextInputProps, 'onChange' | 'value'> & {
  value: string;
  onChange: (value: string) => void;
};

/** A +7 phone field: digits only, `+7` always first, 12 characters at most (spec.md section 5). */
export function PhoneInput({ value, onChange, ...props }: PhoneInputProps) {
  return (
    <TextInput
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      maxLength={12}
      placeholder="+7XXXXXXXXXX"
      {...props}
      value={value}
      onChange={(event) => onChange(normalizeLoginPhone(event.currentTarget.value))}
    />
  );
}
