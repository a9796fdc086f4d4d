/**
 * A text matcher for a line whose words of another person sit in their own `<bdi>` (components/user-text.tsx):
 * the element whose whole text is `text`, not its ancestors (testing-library's string matcher reads only an
 * element's own text nodes).
 */
export const wholeText = (text: string) => (_content: string, element: Element | null) =>
  element?.textContent === text && ![...element.children].some((child) => child.textContent === text);
