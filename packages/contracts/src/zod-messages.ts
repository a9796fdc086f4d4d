/**
 * The messages of a schema that names none of its own, as stable English sentences (DESIGN.md section 2),
 * each with a Russian text in error-texts.ts. Zod's own defaults ("Invalid input: expected string, received
 * number") would reach a screen untranslated. Imported by common.ts, so by every schema module.
 */
import { z } from 'zod';

const origins = new Set(['string', 'array', 'set', 'file']);

function sizeMessage(origin: string, bound: 'least' | 'most', value: unknown): string {
  if (origins.has(origin)) {
    const unit = origin === 'string' ? 'characters' : 'items';
    return `Ensure this field has at ${bound} ${String(value)} ${unit}.`;
  }
  return `Must be at ${bound} ${String(value)}.`;
}

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined ? 'This field is required.' : 'Invalid value.';
      case 'too_small':
        return sizeMessage(String(issue.origin), 'least', issue.minimum);
      case 'too_big':
        return sizeMessage(String(issue.origin), 'most', issue.maximum);
      case 'invalid_value':
        return 'Invalid choice.';
      case 'invalid_format':
        return 'Invalid format.';
      case 'unrecognized_keys':
        return 'Unknown field.';
      default:
        return 'Invalid value.';
    }
  },
});
