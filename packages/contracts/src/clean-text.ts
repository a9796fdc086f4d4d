/**
 * The clean-text rule as zod field schemas (issue 29 part 6): the rule itself is in text-rule.ts.
 */
import { z } from 'zod';
import './zod-messages.ts';
import { isCleanText } from './text-check.ts';
import { CLEAN_TEXT_MESSAGE, collapseSpaces, collapseSpacesMultiline } from './text-rule.ts';

export { cleanForSms, containsLink, hasMixedScripts, isCleanText } from './text-check.ts';
export {
  CLEAN_TEXT_MESSAGE,
  cleanForDisplay,
  collapseSpaces,
  collapseSpacesMultiline,
  stripInvisible,
} from './text-rule.ts';

/** A field's length bounds, each with its own message (the collapsed text is measured). */
export interface HumanTextBounds {
  /** The message of a value that is not a string. */
  error?: string;
  max: { length: number; error: string };
  min?: { length: number; error: string };
}

/**
 * The checks of a human text field in the order that keeps them cheap (issue 40 item 1): the length bounds
 * first, and only text of the field's size is judged by the rule (text-check.ts), with one message that stops
 * the field's other checks. Zod runs a refinement even after a failed `.max()`, so the bounds live here.
 */
function boundedRule(bounds: HumanTextBounds, options: { multiline?: boolean }) {
  return (value: string, context: z.RefinementCtx) => {
    if (value.length > bounds.max.length) {
      context.addIssue({ code: 'custom', message: bounds.max.error, input: value });
      return;
    }
    if (bounds.min && value.length < bounds.min.length) {
      context.addIssue({ code: 'custom', message: bounds.min.error, input: value });
      return;
    }
    if (!isCleanText(value, options))
      context.addIssue({ code: 'custom', message: CLEAN_TEXT_MESSAGE, input: value });
  };
}

/**
 * A one-line human text field: spaces trimmed and collapsed (one linear pass), then the length bounds, then the
 * rule. The bounds measure the collapsed text.
 */
export function humanTextSchema(bounds: HumanTextBounds) {
  return z
    .string(bounds.error === undefined ? undefined : { error: bounds.error })
    .overwrite(collapseSpaces)
    .superRefine(boundedRule(bounds, {}));
}

/** A multi-line human text field (a barrier's note): line breaks kept, each line collapsed. */
export function humanMultilineTextSchema(bounds: HumanTextBounds) {
  return z
    .string(bounds.error === undefined ? undefined : { error: bounds.error })
    .overwrite(collapseSpacesMultiline)
    .superRefine(boundedRule(bounds, { multiline: true }));
}
