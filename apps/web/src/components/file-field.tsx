import { FileInput } from '@mantine/core';

/**
 * A field choosing one file to upload: the placeholder in a readable colour (theme.css), the chosen file's name
 * shown as it is (its extension is Latin: `data-verbatim`, skipped by the Latin-text walk), a named button to
 * remove it.
 */
export function FileField({
  label,
  placeholder,
  accept,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  accept: string;
  value: File | null;
  onChange: (file: File | null) => void;
}) {
  return (
    <FileInput
      label={label}
      placeholder={placeholder}
      classNames={{ placeholder: 'file-input-placeholder' }}
      valueComponent={({ value: chosen }) => (
        <span translate="no" data-verbatim>
          {Array.isArray(chosen) ? chosen.map((item) => item.name).join(', ') : chosen?.name}
        </span>
      )}
      accept={accept}
      value={value}
      onChange={onChange}
      clearable
      clearButtonProps={{ 'aria-label': 'Убрать файл' }}
    />
  );
}
