/**
 * Everything a person reads must be Russian. The journeys collect what a screen shows (collectScreenTexts, run
 * in the page) and findLatinTexts, a pure function, reports every text that still holds a Latin word once the
 * few allowed ones are taken out. Tested on its own in e2e/latin-text.spec.ts.
 */

/** A whole word (a run of letters and digits) matching `source`. */
const word = (source: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, 'gu');

/**
 * Latin a Russian screen may show, each for a reason; what matches is taken out of a text before its words are
 * read. Keep this list short: a new entry needs a reason a Russian word cannot replace it.
 */
export const ALLOWED_LATIN: readonly { pattern: RegExp; why: string }[] = [
  // The device's model is its name on the label, in the manual and in the shop.
  { pattern: word('RTU\\d{4}'), why: 'device model names (RTU5025)' },
  // The other models of the barrier form's list (issue 30, 0026), as their makers write them.
  {
    pattern: word(
      'Telemetrica|Badodo G200|ELDES ESIM\\d{3}|TELL Gate Control(?: BASE 1000)?|Callny G20[23](?: PLUS)?|#TEL',
    ),
    why: 'device model names (Telemetrica, Badodo G200, ELDES ESIM120, TELL Gate Control, Callny G202 PLUS, hash-style #TEL)',
  },
  // The spec's phone mask, word for word in its two messages (issue 41 item 1): 'Номер телефона должен быть в
  // формате +7XXXXXXXXXX.' and 'Введите корректный номер телефона в формате +7XXXXXXXXXX.'. Only the whole mask.
  { pattern: word('\\+7X{10}'), why: "the spec's phone mask +7XXXXXXXXXX in its format messages" },
  // Not SMS: every Russian text spells it СМС (issue 32 item 5).
  // File formats as spreadsheet programs and every Russian office menu name them ('Скачать CSV', 'Скачать Excel').
  { pattern: word('CSV|Excel|JSON'), why: 'file formats of an export and of «Мои данные»' },
  // Not ON/OFF (a setting's values are Russian choices) nor placeholders ('{slot}') nor any other command
  // syntax: they are shown only as a device text, under «Текст СМС» or «Ответ устройства» (issue 32 item 5;
  // collectScreenTexts skips them only there).
];

/** Two Latin letters in a row make a word Latin (one letter, as in 'A1' or 'x', does not). */
const LATIN_RUN = /\p{Script=Latin}{2,}/u;
const WORDS = /[\p{L}\p{N}]+/gu;

/** The Latin words of a text that the list above does not allow. */
export function latinWords(text: string): string[] {
  const rest = ALLOWED_LATIN.reduce((current, { pattern }) => current.replace(pattern, ' '), text);
  return (rest.match(WORDS) ?? []).filter((candidate) => LATIN_RUN.test(candidate));
}

export interface LatinText {
  /** Where the text was shown: 'text', 'placeholder', 'aria-label', 'document title'… */
  where: string;
  text: string;
  words: string[];
}

export interface ScreenText {
  where: string;
  text: string;
}

/** The texts that hold a Latin word not allowed above, once each. */
export function findLatinTexts(texts: readonly ScreenText[]): LatinText[] {
  const seen = new Set<string>();
  const found: LatinText[] = [];
  for (const { where, text } of texts) {
    const words = latinWords(text);
    const key = `${where}\u0000${text}`;
    if (words.length === 0 || seen.has(key)) continue;
    seen.add(key);
    found.push({ where, text: text.trim().replace(/\s+/g, ' ').slice(0, 200), words });
  }
  return found;
}

/**
 * Runs in the page (passed to page.evaluate, so it must not close over anything): every visible text node,
 * the attributes a person reads or hears (placeholder, title, aria-label, alt, aria-description,
 * aria-roledescription), the values of read-only inputs (what a Mantine select shows) and the document's
 * title. Open dropdowns, modals and notifications are in the body, so they are read too.
 *
 * Not read: what a person types into an editable field (his data; the journeys type Russian names and
 * addresses anyway), and text marked translate="no" in two places only: inside a labelled device text
 * (`data-device-text`, whose text starts with «Текст СМС», «Команда:» (the settings preview, as spec.md names
 * it), «Ответ устройства» or «Номер сообщения в шлюзе»:
 * an SMS command as the device receives it, a reply as the device sent it, the form of either, the gateway's
 * id of a message), and inside `data-verbatim` (a person's own data shown as it is: a file's name, a link).
 * translate="no" anywhere else is read like any text, so command syntax shown bare fails the walk.
 *
 * Runs in jsdom too (the web tests' walk of rendered screens, apps/web/src/plain-russian.test.ts): there
 * every element counts as visible.
 */
export function collectScreenTexts(): { where: string; text: string }[] {
  const texts: { where: string; text: string }[] = [{ where: 'document title', text: document.title }];
  const deviceTextLabels = ['Текст СМС:', 'Команда:', 'Ответ устройства', 'Номер сообщения в шлюзе:'];
  const excluded = (element: Element) => {
    if (element.closest('script, style, noscript') !== null) return true;
    const untranslated = element.closest('[translate="no"]');
    if (untranslated === null) return false;
    if (untranslated.closest('[data-verbatim]') !== null) return true;
    const labelled = untranslated.closest('[data-device-text]');
    const label = labelled?.textContent?.trim() ?? '';
    return deviceTextLabels.some((start) => label.startsWith(start));
  };
  const visible = (element: Element) =>
    typeof element.checkVisibility !== 'function' ||
    element.checkVisibility({ opacityProperty: false, visibilityProperty: true });
  const placeOf = (element: Element) => {
    const testId = element.closest('[data-testid]')?.getAttribute('data-testid');
    return `${element.tagName.toLowerCase()}${testId ? ` in [data-testid=${testId}]` : ''}`;
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent ?? '';
    // A textarea's text is its value: what a person typed (a read-only one is read below, as a value).
    if (!parent || parent.tagName === 'TEXTAREA') continue;
    if (text.trim() === '' || excluded(parent) || !visible(parent)) continue;
    texts.push({ where: `text of ${placeOf(parent)}`, text });
  }

  const attributes = [
    'placeholder',
    'title',
    'aria-label',
    'alt',
    'aria-description',
    'aria-roledescription',
  ];
  for (const element of document.body.querySelectorAll('*')) {
    if (excluded(element) || !visible(element)) continue;
    for (const attribute of attributes) {
      const value = element.getAttribute(attribute);
      if (value?.trim()) texts.push({ where: `${attribute} of ${placeOf(element)}`, text: value });
    }
    if (
      (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) &&
      element.readOnly &&
      element.value.trim() !== ''
    )
      texts.push({ where: `value of ${placeOf(element)}`, text: element.value });
  }
  return texts;
}
