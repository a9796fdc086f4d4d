/**
 * The clean-text rule as zod field schemas (issue 29 part 6): the rule itself is in text-rule.ts.
 */
import { z } from 'zod';
import './zod-messages.ts';
import { CLEAN_TEXT_MESSAGE, collapseSpaces, collapseSpacesMultiline, isCleanText } from './text-rule.ts';

export {
  CLEAN_TEXT_MESSAGE,
  cleanForDisplay,
  cleanForSms,
  collapseSpaces,
  collapseSpacesMultiline,
  containsLink,
  isCleanText,
  stripInvisible,
} from './text-rule.ts';

/**
 * A one-line human text field: spaces trimmed and collapsed, then the rule (one message, which stops the
 * field's other checks). Chain `.min()` / `.max()` after it: they measure the collapsed text.
 */
export function humanTextSchema(params?: { error: string }) {
  return z
    .string(params)
    .overwrite(collapseSpaces)
    .refine((value) => isCleanText(value), { error: CLEAN_TEXT_MESSAGE, abort: true });
}

/** A multi-line human text field (a barrier's note): line breaks kept, each line collapsed. */
export function humanMultilineTextSchema(params?: { error: string }) {
  return z
    .string(params)
    .overwrite(collapseSpacesMultiline)
    .refine((value) => isCleanText(value, { multiline: true }), { error: CLEAN_TEXT_MESSAGE, abort: true });
}
