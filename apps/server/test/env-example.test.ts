/**
 * `.env.example` is the operator's list of settings (issue 31 part 4): every variable of the configuration
 * schema is in it, with the schema's default where there is one, and nothing that the server does not read.
 * A variable added to config.ts without a line here fails this test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentSchema, loadConfig } from '../src/config/config.ts';

const examplePath = path.resolve(import.meta.dirname, '../../../.env.example');

function readExample() {
  const active = new Map<string, string[]>();
  const commented = new Map<string, string[]>();
  for (const line of readFileSync(examplePath, 'utf8').split('\n')) {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    const [, comment, name, value] = match as unknown as [string, string | undefined, string, string];
    const target = comment ? commented : active;
    target.set(name, [...(target.get(name) ?? []), value]);
  }
  return { active, commented };
}

const shape = environmentSchema.shape as Record<
  string,
  (typeof environmentSchema.shape)[keyof typeof environmentSchema.shape]
>;
const names = Object.keys(shape);
const defaultOf = (name: string) => shape[name]?.safeParse(undefined);

describe('.env.example', () => {
  const { active, commented } = readExample();

  it('names every variable of the configuration schema, and nothing else', () => {
    const missing = names.filter((name) => !active.has(name) && !commented.has(name));
    expect(missing, 'add these to .env.example').toEqual([]);
    const unknown = [...active.keys(), ...commented.keys()].filter((name) => !names.includes(name));
    expect(unknown, 'not read by the server').toEqual([]);
  });

  it('sets each variable that has a default to exactly that default, once; leaves the others commented', () => {
    for (const name of names) {
      const fallback = defaultOf(name);
      const hasDefault = fallback?.success === true && fallback.data !== undefined;
      if (hasDefault) {
        expect(active.get(name), `${name}: one active line with its default`).toHaveLength(1);
        const written = shape[name]?.parse(active.get(name)?.[0]);
        expect(written, `${name} in .env.example`).toEqual(fallback.data);
      } else {
        expect(active.has(name), `${name} has no default: leave it commented`).toBe(false);
      }
    }
  });

  it('is accepted as it stands by the server', () => {
    const env = Object.fromEntries([...active].map(([name, [value]]) => [name, value]));
    expect(() => loadConfig(env)).not.toThrow();
  });
});
