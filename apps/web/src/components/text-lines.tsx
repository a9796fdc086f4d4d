/**
 * A text of several lines, each its own block (issue 41 item 1): a text the spec quotes stands on its first line
 * exactly as written ('Нет данных', 'Номер телефона должен быть в формате +7XXXXXXXXXX.'), and a helpful next
 * step follows on a line of its own («Например: +7 (916) 123-45-67.»). The lines are separated by `\n` in the
 * catalogue text; the lines of one text differ, so each is its own key.
 */
export const TextLines = ({ text }: { text: string }) =>
  text.split('\n').map((line) => (
    <span key={line} style={{ display: 'block' }}>
      {line}
    </span>
  ));
