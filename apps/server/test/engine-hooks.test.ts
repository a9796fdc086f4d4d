/**
 * The engine's hooks are a typed dependency (issue 44 part 2, src/domain-hooks.ts): a reading with no
 * read-back hook to take it fails loudly (its check would otherwise say «идёт чтение» for ever), and every
 * settled command is told to each hook, in the order given. No database: the hooks are called directly.
 */
import { describe, expect, it } from 'vitest';
import type { Executor } from '../src/db/database.ts';
import { buildEngineHooks } from '../src/domain-hooks.ts';
import { commandSettled, readReplied } from '../src/engine/hooks.ts';
import type { Dependencies } from '../src/lib/dependencies.ts';

const tx = {} as Executor;
const now = new Date('2026-11-29T01:00:00.000Z');
const deps = { clock: { now: () => now }, config: {} } as unknown as Pick<Dependencies, 'clock' | 'config'>;

describe('the engine’s hooks', () => {
  it('fails a reading loudly when no read-back hook is given', async () => {
    await expect(
      readReplied(
        { ...deps, engineHooks: { commandSettled: [] } },
        tx,
        { check_id: 1, query: { from: 1, to: 10 } as never },
        { outcome: 'no_reply' },
        now,
      ),
    ).rejects.toThrow('No read-back hook is given (src/domain-hooks.ts buildEngineHooks).');
  });

  it('tells every settled command to each hook, in order, and the modules give all three', async () => {
    const told: string[] = [];
    const command = { id: 7, barrierId: 3, kind: 'add', payload: {}, attempts: 1 };
    await commandSettled(
      {
        engineHooks: {
          commandSettled: [
            async (_tx, settled) => void told.push(`relay ${settled.id}`),
            async (_tx, settled, outcome) => void told.push(`conformance ${settled.id} ${outcome.confirmed}`),
          ],
        },
      },
      tx,
      command,
      { confirmed: true },
      now,
    );
    expect(told).toEqual(['relay 7', 'conformance 7 true']);
    const built = buildEngineHooks();
    expect(built.commandSettled).toHaveLength(2);
    expect(typeof built.readReply).toBe('function');
    expect(typeof built.unitText).toBe('function');
  });
});
