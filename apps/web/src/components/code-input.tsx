import { TextInput, type TextInputProps } from '@mantine/core';

type CodeInputProps = Omit<TextInputProps, 'onChange' | 'value'> & {
  value: string;
  onChange: (value: string) => void;
};

/** The 6-digit SMS code: digits only, six at most; the phone offers the code from the SMS. */
export function CodeInput({ value, onChange, label = 'Код из СМС', ...props }: CodeInputProps) {
  return (
    <TextInput
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="000000"
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
    />
  );
}

export const isSixDigitCode = (value: string) => /^\d{6}$/.test(value);
