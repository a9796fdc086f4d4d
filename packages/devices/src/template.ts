/** `{key}` placeholders in command and reply templates. */
const placeholderPattern = /\{([a-z_]+)\}/g;

export function templatePlaceholders(template: string): string[] {
  return [...template.matchAll(placeholderPattern)].map((match) => match[1] ?? '');
}

/** Fills the placeholders that have values; the others stay as written (as the settings preview shows). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(placeholderPattern, (whole, key: string) => values[key] ?? whole);
}

/** A placeholder either stands for a known literal value or is captured by a pattern. */
export type TemplatePart = { value: string } | { pattern: string };

function escapeLiteral(text: string, loose: boolean): string {
  const escaped = text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return loose ? escaped.replace(/\s+/g, '\\s+') : escaped;
}

/**
 * Turns a template into an anchored regex. Captured placeholders become named groups; placeholders without
 * a part match anything (reply fields the caller cannot predict). `loose` (for replies) ignores case and
 * tolerates any whitespace between words and around the text.
 */
export function templateToRegex(
  template: string,
  parts: Record<string, TemplatePart>,
  loose = false,
): RegExp {
  let source = '';
  let last = 0;
  const seen = new Set<string>();
  for (const match of template.matchAll(placeholderPattern)) {
    const key = match[1] ?? '';
    source += escapeLiteral(template.slice(last, match.index), loose);
    last = (match.index ?? 0) + match[0].length;
    const part = parts[key];
    if (part === undefined) source += '[\\s\\S]*?';
    else if ('value' in part) source += escapeLiteral(part.value, loose);
    else if (seen.has(key)) source += `\\k<${key}>`;
    else {
      seen.add(key);
      source += `(?<${key}>${part.pattern})`;
    }
  }
  source += escapeLiteral(template.slice(last), loose);
  return loose ? new RegExp(`^\\s*${source}\\s*$`, 'i') : new RegExp(`^${source}$`);
}

const replyRegexes = new Map<string, RegExp>();

const normalizeText = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Whether a received text fits a reply template whose placeholders hold the expected values (loosely:
 * case and whitespace do not matter). Placeholders without an expected value may hold anything. The regex
 * of a template is compiled once; the values are compared after matching.
 */
export function matchesReplyTemplate(
  template: string,
  expected: Record<string, string>,
  text: string,
): boolean {
  let regex = replyRegexes.get(template);
  if (!regex) {
    const parts: Record<string, TemplatePart> = {};
    for (const key of templatePlaceholders(template)) parts[key] = { pattern: '[\\s\\S]*?' };
    regex = templateToRegex(template, parts, true);
    replyRegexes.set(template, regex);
  }
  const match = regex.exec(text);
  if (!match) return false;
  const groups = match.groups ?? {};
  return Object.entries(expected).every(
    ([key, value]) =>
      !Object.hasOwn(groups, key) || normalizeText(groups[key] ?? '') === normalizeText(value),
  );
}
