import { List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The operator's policy as he wrote it (Markdown or plain text): `#` lines are headings, `-` lines list items,
 * everything else paragraphs. Text only: nothing in it is ever run as HTML.
 */
export function PolicyText({ text }: { text: string }) {
  const blocks: { kind: 'h1' | 'h2' | 'p' | 'li'; text: string; key: string }[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    const key = `line-${index}`;
    if (line === '') continue;
    if (line.startsWith('## ')) blocks.push({ kind: 'h2', text: line.slice(3), key });
    else if (line.startsWith('# ')) blocks.push({ kind: 'h1', text: line.slice(2), key });
    else if (/^[-*] /.test(line)) blocks.push({ kind: 'li', text: line.slice(2), key });
    else blocks.push({ kind: 'p', text: line, key });
  }
  const out: ReactNode[] = [];
  let items: { text: string; key: string }[] = [];
  const flush = () => {
    if (items.length === 0) return;
    out.push(
      <List key={`list-${items[0]?.key}`} size="sm" spacing={2}>
        {items.map((item) => (
          <List.Item key={item.key}>{item.text}</List.Item>
        ))}
      </List>,
    );
    items = [];
  };
  for (const block of blocks) {
    if (block.kind === 'li') {
      items.push({ text: block.text, key: block.key });
      continue;
    }
    flush();
    const { key } = block;
    if (block.kind === 'h1')
      out.push(
        <Title key={key} order={3}>
          {block.text}
        </Title>,
      );
    else if (block.kind === 'h2')
      out.push(
        <Title key={key} order={4}>
          {block.text}
        </Title>,
      );
    else
      out.push(
        <Text key={key} size="sm">
          {block.text}
        </Text>,
      );
  }
  flush();
  return (
    <Stack gap="xs" data-testid="privacy-policy-text">
      {out}
    </Stack>
  );
}
