import { ANY_NUMBER_PATTERN, parseDeviceNumber } from './numbers.ts';
import { normalizeReplyText } from './reply-text.ts';
import type { SourcedForm } from './sheet-types.ts';

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

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Reply literals: any spacing (or none) where the template has a space or after punctuation. */
function looseLiteral(text: string): string {
  let source = '';
  for (const char of text) {
    if (/\s/.test(char)) {
      if (!source.endsWith('\\s*')) source += '\\s*';
    } else if (/[:#,.!;=]/.test(char)) {
      source += `\\s*${escapeLiteral(char)}\\s*`;
    } else {
      source += escapeLiteral(char);
    }
  }
  return source.replace(/(?:\\s\*)+/g, '\\s*');
}

/**
 * Turns a command template into an anchored regex (the simulator parses commands with it). Captured
 * placeholders become named groups; placeholders without a part match anything.
 */
export function templateToRegex(template: string, parts: Record<string, TemplatePart>): RegExp {
  let source = '';
  let last = 0;
  const seen = new Set<string>();
  for (const match of template.matchAll(placeholderPattern)) {
    const key = match[1] ?? '';
    source += escapeLiteral(template.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    const part = parts[key];
    if (part === undefined) source += '[\\s\\S]*?';
    else if ('value' in part) source += escapeLiteral(part.value);
    else if (seen.has(key)) source += `\\k<${key}>`;
    else {
      seen.add(key);
      source += `(?<${key}>${part.pattern})`;
    }
  }
  source += escapeLiteral(template.slice(last));
  return new RegExp(`^${source}$`);
}

/** What a reply placeholder may hold. Unknown placeholders hold anything on one line. */
const replyPlaceholderPatterns: Record<string, string> = {
  slot: '\\d{1,4}',
  from: '\\d{1,4}',
  to: '\\d{1,4}',
  number: '\\+?\\d[\\d \\-()]{8,16}\\d',
  start: '\\d{10}',
  end: '\\d{10}',
  time: '\\d{10}',
  new_password: '\\d{4}',
  seconds: '\\d{1,4}',
  count: '\\d{1,4}',
  phone: `${ANY_NUMBER_PATTERN}`,
};

const replyRegexes = new Map<string, RegExp>();

/**
 * A reply template as a regex that finds it anywhere in a text (after an echoed password or command, on any
 * line), ignoring case and spacing. Placeholders become named groups.
 */
export function replyRegex(template: string): RegExp {
  const cached = replyRegexes.get(template);
  if (cached) return cached;
  let source = '';
  let last = 0;
  const seen = new Set<string>();
  for (const match of template.matchAll(placeholderPattern)) {
    const key = match[1] ?? '';
    source += looseLiteral(template.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    if (seen.has(key)) source += `\\k<${key}>`;
    else {
      seen.add(key);
      source += `(?<${key}>${replyPlaceholderPatterns[key] ?? '[^\\n]*?'})`;
    }
  }
  source += looseLiteral(template.slice(last));
  // Not glued to a longer word or number on either side.
  const regex = new RegExp(`(?<![0-9A-Za-z])${source}(?![0-9])`, 'giu');
  replyRegexes.set(template, regex);
  return regex;
}

const normalizeText = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether a captured reply value means the expected one: slots by number, numbers by subscriber. */
export function sameReplyValue(key: string, captured: string, expected: string): boolean {
  if (key === 'slot' || key === 'from' || key === 'to' || key === 'seconds' || key === 'count') {
    return Number(captured) === Number(expected);
  }
  if (key === 'number' || key === 'phone') {
    const a = parseDeviceNumber(captured);
    return a !== null && a === parseDeviceNumber(expected);
  }
  return normalizeText(captured) === normalizeText(expected);
}

/** Every occurrence of a reply form in a text (already normalised), with its placeholder values. */
export function findReplyForm(template: string, normalized: string): Record<string, string>[] {
  const regex = replyRegex(template);
  regex.lastIndex = 0;
  return [...normalized.matchAll(regex)].map((match) => ({ ...match.groups }));
}

/**
 * Whether a received text holds one of the reply forms with the expected values in its placeholders.
 * Placeholders without an expected value may hold anything.
 */
export function matchesReplyForms(
  forms: readonly SourcedForm[],
  expected: Record<string, string>,
  text: string,
): boolean {
  const normalized = normalizeReplyText(text);
  return forms.some((form) =>
    findReplyForm(form.template, normalized).some((groups) =>
      Object.entries(expected).every(
        ([key, value]) => !Object.hasOwn(groups, key) || sameReplyValue(key, groups[key] ?? '', value),
      ),
    ),
  );
}

/**
 * How a received text holds one of the reply forms with the expected values: `names: true` when the form
 * that matched carries at least one of the expected values (a slot, a number, a new password: the reply
 * names its command), `names: false` when it matched a form without them ("Set Time OK", "Relay ON",
 * "Set Success!": it could answer any command of that form). Null: no form matches.
 */
export function matchReplyFormsDetail(
  forms: readonly SourcedForm[],
  expected: Record<string, string>,
  text: string,
): { names: boolean } | null {
  const normalized = normalizeReplyText(text);
  let found: { names: boolean } | null = null;
  for (const form of forms) {
    for (const groups of findReplyForm(form.template, normalized)) {
      const checked = Object.entries(expected).filter(([key]) => Object.hasOwn(groups, key));
      if (!checked.every(([key, value]) => sameReplyValue(key, groups[key] ?? '', value))) continue;
      if (checked.length > 0) return { names: true };
      found = { names: false };
    }
  }
  return found;
}
