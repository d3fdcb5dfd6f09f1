// The associated data every seal and key wrap authenticates: written directly
// for speed (a seal's from a template), it must stay byte for byte what RFC
// 8785 (the `canonicalize` package) writes, or every ciphertext already
// stored would stop opening.
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { associatedData } from '../../src/infrastructure/cipher/associated-data.js';
import { aadFor } from '../../src/infrastructure/cipher/seal.js';

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('label', 'ünïcødé', '😀', '\u2028', '"\\', '\u0000', 'a\ud800', '\udc00b'),
);

describe('associated data', () => {
  it('is the RFC 8785 canonical JSON of the fields and the label, for any keys and values', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(text, fc.option(text, { nil: null })), (label, fields) => {
        const object = { ...fields, label };
        let expected: string | undefined;
        try {
          expected = canonicalize(object);
        } catch {
          // Whatever the general serializer refuses stays refused.
          expect(() => associatedData(label, fields)).toThrow();
          return;
        }
        expect(associatedData(label, fields).toString('utf8')).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it("a seal's, written from its template, is the general writer's for any key id and place", () => {
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        (keyId, tenant, subject, memoryId, field) => {
          const general = () =>
            associatedData('memledger/sealed/v1', {
              alg: 'A256GCM',
              keyId,
              tenant,
              subject,
              memoryId: memoryId ?? null,
              field: field ?? null,
            });
          let expected: Buffer;
          try {
            expected = general();
          } catch {
            expect(() => aadFor(keyId, { tenant, subject, memoryId, field })).toThrow();
            return;
          }
          expect(aadFor(keyId, { tenant, subject, memoryId, field }).toString('utf8')).toBe(expected.toString('utf8'));
        },
      ),
      { numRuns: 5000 },
    );
    expect(aadFor('k_1', { tenant: 'acme', subject: 'u-1', memoryId: 'm-1', field: 'content' }).toString()).toBe(
      '{"alg":"A256GCM","field":"content","keyId":"k_1","label":"memledger/sealed/v1","memoryId":"m-1","subject":"u-1","tenant":"acme"}',
    );
  });

  it('matches the form stored ciphertexts were made with', () => {
    expect(
      associatedData('memledger/memory-key/v1', {
        tenant: 'acme',
        subject: 'u-1',
        memoryId: 'm',
        keyId: 'mk_1',
        subjectKeyId: 'sk_1',
      }).toString(),
    ).toBe('{"keyId":"mk_1","label":"memledger/memory-key/v1","memoryId":"m","subject":"u-1","subjectKeyId":"sk_1","tenant":"acme"}');
  });
});
