// The CLI reads commander's untyped options through a schema per command:
// what matches passes through unchanged, a mismatch is bad input naming the
// option as it is typed on the command line.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { opt, optionsOf, subjectSchema } from '../../src/cli/options.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';

describe('optionsOf', () => {
  it('returns the options commander gave, typed by the schema', () => {
    const schema = subjectSchema.extend({ sourceType: opt.optionalList, fromRaw: opt.flag, reason: opt.optionalText });
    const flags = { tenant: 't1', subject: 's1', sourceType: ['user', 'tool'], fromRaw: true };
    expect(optionsOf(schema, flags)).toEqual(flags);
  });

  it('names a required option that is missing, in its command-line spelling', () => {
    const read = () => optionsOf(z.object({ batchSize: opt.text }), {});
    expect(read).toThrow(InvalidInput);
    expect(read).toThrow(expect.objectContaining({ field: 'batch-size' }) as Error);
  });

  it('names an option whose value has the wrong shape', () => {
    expect(() => optionsOf(z.object({ idleExitMs: opt.optionalText }), { idleExitMs: true })).toThrow(
      expect.objectContaining({ field: 'idle-exit-ms' }) as Error,
    );
  });
});
