// The window of recent commands (src/reads/streams/command-window.ts) keeps
// its generations so a fold copies only the young one, and answers as the
// plain form it replaced: one Map copied per fold, a command's span updated
// in place, a new command appended and the oldest dropped past the capacity.
// The plain form is written out here as the oracle, folds of any sizes
// applied to both, and every fold (an old one too: folds are immutable)
// compared on every command ever seen.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommandWindow, type CommandSpan } from '../../src/reads/streams/command-window.js';

function plainFold(window: ReadonlyMap<string, CommandSpan>, events: readonly (readonly [string, number])[], capacity: number) {
  const next = new Map(window);
  for (const [commandId, revision] of events) {
    const span = next.get(commandId);
    if (span) next.set(commandId, { firstRevision: span.firstRevision, lastRevision: revision });
    else {
      next.set(commandId, { firstRevision: revision, lastRevision: revision });
      if (next.size > capacity) next.delete(next.keys().next().value!);
    }
  }
  return next;
}

describe('CommandWindow', () => {
  it('answers every command as a copied Map would, for every fold, old ones included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 150 }),
        // Folds of a few events each; commands drawn from a pool, so some come back (retries, multi-event commands).
        fc.array(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 60 }),
        (capacity, folds) => {
          let revision = 0;
          let plain: ReadonlyMap<string, CommandSpan> = new Map();
          let window = CommandWindow.empty(capacity);
          const history: [ReadonlyMap<string, CommandSpan>, CommandWindow][] = [[plain, window]];
          for (const fold of folds) {
            const events = fold.map((n) => [`k-${n}`, revision++] as const);
            plain = plainFold(plain, events, capacity);
            window = window.extendedBy(events);
            history.push([plain, window]);
          }
          const asked = [...new Set(folds.flat().map((n) => `k-${n}`)), 'k-never'];
          for (const [expected, actual] of history) {
            for (const commandId of asked) {
              expect(actual.get(commandId)).toEqual(expected.get(commandId));
              expect(actual.has(commandId)).toBe(expected.has(commandId));
            }
            expect([...actual]).toEqual([...expected]);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
