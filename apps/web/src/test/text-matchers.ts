/**
 * A text matcher for a line whose words of another person sit in their own `<bdi>` (components/user-text.tsx):
 * the element whose whole text is `text`, not its ancestors (testing-library's string matcher reads only an
 * element's own text nodes). Whitespace is compared as testing-library does: a phone number's no-break spaces
 * (lib/phone.ts formatPhone) match plain ones.
 */
const normalized = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export const wholeText = (text: string) => (_content: string, element: Element | null) =>
  normalized(element?.textContent) === normalized(text) &&
  ![...(element?.children ?? [])].some((child) => normalized(child.textContent) === normalized(text));
