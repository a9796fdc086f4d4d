import { Fragment } from 'react';

/**
 * A text of several lines, each its own block (issue 41 item 1): a text the spec quotes stands on its first line
 * exactly as written ('Нет данных', 'Номер телефона должен быть в формате +7XXXXXXXXXX.'), and a helpful next
 * step follows on a line of its own («Например: +7 (916) 123-45-67.»). The lines are separated by `\n` in the
 * catalogue text.
 */
export function TextLines({ text }: { text: string }) {
  const lines = text.split('\n');
  if (lines.length === 1) return text;
  return lines.map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed text, never reordered.
    <Fragment key={index}>
      <span style={{ display: 'block' }}>{line}</span>
    </Fragment>
  ));
}
