import { cleanForDisplay, stripInvisible } from '@propusk/contracts/text-rule';

/**
 * Text another person typed (a name, an address, a phone's name, a note, a reason) or a device sent, shown
 * isolated (issue 29 part 6): inside `<bdi>` its direction cannot reorder the screen around it, and the
 * characters that reorder or hide text are dropped. What people type keeps the clean-text rule on the server;
 * text stored before the rule is cleaned the same way here. A device's reply (`verbatim`) keeps its own
 * characters (`=`, `@`…), only the invisible ones are dropped. `fallback` (ours, «Без имени») stands for an
 * empty value.
 */
export function UserText({
  children,
  verbatim = false,
  fallback = null,
}: {
  children: string | null | undefined;
  verbatim?: boolean;
  fallback?: string | null;
}) {
  const text = children ? (verbatim ? stripInvisible(children) : cleanForDisplay(children)) : '';
  if (!text) return fallback;
  return <bdi>{text}</bdi>;
}

/**
 * The same for text that goes into a sentence of ours as a string (a confirmation's question, a message):
 * cleaned by the same rule. Only Latin and Cyrillic letters are left, and no bidi character, so the string
 * has nothing that could reorder the sentence around it (the plain-text equivalent of `<bdi>`).
 */
export function displayText(text: string | null | undefined, fallback = ''): string {
  return (text ? cleanForDisplay(text) : '') || fallback;
}
