// RFC 8785 conformance of the canonical JSON the ledger hashes (test data:
// a copy of ../shared/testdata/jcs in test/fixtures/jcs, from
// cyberphone/json-canonicalization, Apache License 2.0; see its README).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical/canonical-json.js';

const DIR = fileURLToPath(new URL('../fixtures/jcs', import.meta.url));
const names = readdirSync(join(DIR, 'input'))
  .filter((n) => n.endsWith('.json'))
  .sort();

describe('RFC 8785 canonical JSON', () => {
  it('has the conformance files', () => {
    expect(names).toEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']);
  });

  it.each(names)('%s canonicalizes to exactly the expected bytes', (name) => {
    const input: unknown = JSON.parse(readFileSync(join(DIR, 'input', name), 'utf8'));
    const expected = readFileSync(join(DIR, 'output', name), 'utf8').replace(/\n$/, '');
    expect(canonicalJson(input)).toBe(expected);
  });

  it('refuses what has no JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow();
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
    expect(() => canonicalJson('\ud800')).toThrow();
  });
});
