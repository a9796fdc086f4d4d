import { describe, expect, it } from 'vitest';
import { errorForLog } from './log-error.ts';

describe('errorForLog cuts the statement parameters Drizzle appends', () => {
  it('from the message to its end, and in the stack up to its first frame', () => {
    const error = new Error('Failed query: select 1 where phone = $1\nparams: +79001234567,тайна');
    error.stack =
      'Error: Failed query: select 1 where phone = $1\nparams: +79001234567,тайна\n    at query (db.ts:1:1)\n    at main (app.ts:2:2)';
    const logged = errorForLog(error);
    expect(logged.message).toBe('Failed query: select 1 where phone = $1\nparams: [omitted]');
    expect(logged.stack).toBe(
      'Error: Failed query: select 1 where phone = $1\nparams: [omitted]\n    at query (db.ts:1:1)\n    at main (app.ts:2:2)',
    );
  });

  it('leaves a text without parameters as it is, and cuts only the first list of many', () => {
    expect(errorForLog(new Error('connection refused')).message).toBe('connection refused');
    const many = `a${'\nparams: x'.repeat(50_000)}`;
    expect(errorForLog(new Error(many)).message).toBe('a\nparams: [omitted]');
  });
});
