import { describe, expect, it } from 'vitest';
import { subjectCommandSchema } from '../../src/domain/subject/commands.js';
import { parseWith } from '../../src/domain/validation/invalid-input.js';
import { record, sealed, T2 } from './fixtures.js';

describe('subject command schemas', () => {
  it('accept the commands the handler builds from a sealed entry', () => {
    const command = record('m-1', sealed({ content: 'Prefers SMS.', validFrom: T2 }));
    expect(parseWith(subjectCommandSchema, command)).toEqual({ ok: true, value: command });
  });

  it('normalise instants and fill list defaults', () => {
    const parsed = parseWith(subjectCommandSchema, { type: 'ForgetSubject', receiptId: 'r-1', now: '2026-07-10T08:00:00+08:00' });
    expect(parsed).toEqual({
      ok: true,
      value: { type: 'ForgetSubject', receiptId: 'r-1', destroyedKeyIds: [], invalidatedArtifactIds: [], now: '2026-07-10T00:00:00.000Z' },
    });
  });

  it.each([
    [{ ...record('m 1', sealed()) }, 'memoryId'],
    [{ ...record('m-1', sealed()), now: 'yesterday' }, 'now'],
    [{ ...record('m-1', sealed()), entry: { ...sealed(), valueHash: 'abc' } }, 'entry.valueHash'],
    [{ ...record('m-1', sealed()), entry: { ...sealed(), value: { alg: 'A256GCM', keyId: 'k', iv: '!!', ct: 'AA==' } } }, 'entry.value.iv'],
    [{ type: 'ChangeTrust', sourceRef: 'a://1', level: 'divine', now: T2 }, 'level'],
    [{ type: 'RetractMemory', memoryId: 'm-1', reason: '', now: T2 }, 'reason'],
    [{ type: 'Teleport', now: T2 }, 'type'],
  ])('refuse a bad command, naming the field (%#)', (input, field) => {
    const parsed = parseWith(subjectCommandSchema, input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.field).toBe(field);
  });
});
