/**
 * The few shapes of SpreadsheetML the import reads, found in linear time (issue 40 item 1): elements by name
 * (`<name attributes>body</name>` or `<name attributes/>`, never nested in themselves in the parts read) and
 * attributes of a start tag. Lazy patterns such as `<si>([\s\S]*?)<\/si>` scanned the rest of the file once per
 * unclosed start tag (160 KB of `<si>` took 8 s); here every search moves forward, and a closing tag not found
 * once is not looked for again.
 */

export interface XmlElement {
  /** What the start tag holds after its name (` r="A1" t="s"`), without `/`. */
  attributes: string;
  /** The text between the start and the end tag; '' for an empty element. */
  body: string;
  /** Where the element ends in the scanned text (after `>` of its end tag or of an empty tag). */
  end: number;
}

/** A character that may go on a name (`\b` after the name: `<c` is not `<cols`). */
const NAME_CHARACTER = /^[A-Za-z0-9_:.-]$/;
const isNameCharacter = (character: string) => NAME_CHARACTER.test(character);

/**
 * A scanner of the elements `name` of one text: `next()` gives the next complete element or null. `incomplete`
 * says the text ended inside a start tag or before an end tag (a stream may bring the rest: `extend`).
 */
export function scanElements(initial: string, name: string) {
  const open = `<${name}`;
  const close = `</${name}>`;
  let text = initial;
  let position = 0;
  // Every end tag before this index has been looked for and is not there (the search never goes back).
  let closeSearchedTo = 0;
  let noMoreCloseTags = false;
  // For the start tag at `position` when the text ended inside it: no `>` before this index.
  let tagSearchedTo = 0;
  return {
    get position() {
      return position;
    },
    /** Appends what a stream brought; `drop` characters at the start are let go (all before `position`). */
    extend(more: string, drop = 0) {
      text = text.slice(drop) + more;
      position -= drop;
      closeSearchedTo = Math.max(0, closeSearchedTo - drop);
      tagSearchedTo = Math.max(0, tagSearchedTo - drop);
      noMoreCloseTags = false;
    },
    /** The next complete element, or null (then `position` is where an unfinished one may start). */
    next(): XmlElement | null {
      for (;;) {
        const start = text.indexOf(open, position);
        if (start < 0) {
          // A partial `<nam` at the very end may still become a start tag.
          position = Math.max(position, text.length - open.length + 1);
          return null;
        }
        const after = start + open.length;
        if (after >= text.length) {
          position = start;
          return null;
        }
        if (isNameCharacter(text.charAt(after))) {
          position = after;
          continue;
        }
        const tagEnd = text.indexOf('>', start === position ? Math.max(after, tagSearchedTo) : after);
        if (tagEnd < 0) {
          position = start;
          tagSearchedTo = text.length;
          return null;
        }
        if (text.charAt(tagEnd - 1) === '/') {
          position = tagEnd + 1;
          return { attributes: text.slice(after, tagEnd - 1), body: '', end: position };
        }
        if (noMoreCloseTags) {
          // Only empty elements can follow; this start tag is skipped.
          position = tagEnd + 1;
          continue;
        }
        const closing = text.indexOf(close, Math.max(tagEnd + 1, closeSearchedTo));
        if (closing < 0) {
          closeSearchedTo = Math.max(tagEnd + 1, text.length - close.length + 1);
          noMoreCloseTags = true;
          position = start;
          return null;
        }
        position = closing + close.length;
        return {
          attributes: text.slice(after, tagEnd),
          body: text.slice(tagEnd + 1, closing),
          end: position,
        };
      }
    },
    /** After `next()` gave null for an unclosed tag: goes on past it, to empty elements only. */
    skipUnclosed() {
      const tagEnd = text.indexOf('>', position);
      position = tagEnd < 0 ? text.length : tagEnd + 1;
    },
  };
}

/** Every complete element `name` of `xml`, in order (an unclosed one skipped; empty ones after it kept). */
export function elements(xml: string, name: string): XmlElement[] {
  const scanner = scanElements(xml, name);
  const found: XmlElement[] = [];
  while (scanner.position < xml.length) {
    const element = scanner.next();
    if (element) found.push(element);
    else if (scanner.position < xml.length && xml.startsWith(`<${name}`, scanner.position))
      scanner.skipUnclosed();
    else break;
  }
  return found;
}

/** The first complete element `name` of `xml`, or undefined. */
export function firstElement(xml: string, name: string): XmlElement | undefined {
  const scanner = scanElements(xml, name);
  while (scanner.position < xml.length) {
    const element = scanner.next();
    if (element) return element;
    if (scanner.position < xml.length && xml.startsWith(`<${name}`, scanner.position)) scanner.skipUnclosed();
    else return undefined;
  }
  return undefined;
}

const isSpace = (character: string) =>
  character === ' ' || character === '\t' || character === '\n' || character === '\r';

/**
 * The value of an attribute of a start tag's attributes (` r="A1" t='s'`): the first whose name is `name` (or
 * passes it, as a test). Read in one pass; a value without its closing quote ends the reading.
 */
export function attributeOf(
  attributes: string,
  name: string | ((found: string) => boolean),
): string | undefined {
  const matches = typeof name === 'string' ? (found: string) => found === name : name;
  let index = 0;
  const length = attributes.length;
  while (index < length) {
    while (index < length && (isSpace(attributes.charAt(index)) || attributes.charAt(index) === '/'))
      index += 1;
    const nameStart = index;
    while (index < length && !isSpace(attributes.charAt(index)) && attributes.charAt(index) !== '=')
      index += 1;
    const found = attributes.slice(nameStart, index);
    while (index < length && isSpace(attributes.charAt(index))) index += 1;
    if (attributes.charAt(index) !== '=') {
      if (index === nameStart) index += 1;
      continue;
    }
    index += 1;
    while (index < length && isSpace(attributes.charAt(index))) index += 1;
    const quote = attributes.charAt(index);
    if (quote !== '"' && quote !== "'") continue;
    const valueEnd = attributes.indexOf(quote, index + 1);
    if (valueEnd < 0) return undefined;
    const value = attributes.slice(index + 1, valueEnd);
    if (found !== '' && matches(found)) return value;
    index = valueEnd + 1;
  }
  return undefined;
}

/**
 * The attributes of every start tag `name` of `xml` (`<xf numFmtId="14">…</xf>` and `<xf numFmtId="14"/>` alike),
 * in order; the text ends the search at a start tag without its `>`.
 */
export function startTags(xml: string, name: string): string[] {
  const open = `<${name}`;
  const found: string[] = [];
  let position = 0;
  for (;;) {
    const start = xml.indexOf(open, position);
    const after = start + open.length;
    if (start < 0 || after >= xml.length) return found;
    position = after;
    if (isNameCharacter(xml.charAt(after))) continue;
    const tagEnd = xml.indexOf('>', after);
    if (tagEnd < 0) return found;
    found.push(xml.slice(after, xml.charAt(tagEnd - 1) === '/' ? tagEnd - 1 : tagEnd));
    position = tagEnd + 1;
  }
}

/** The attributes of the first start tag `name` of `xml`, or undefined. */
export function startTag(xml: string, name: string): string | undefined {
  return startTags(xml, name)[0];
}
