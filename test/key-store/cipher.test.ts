import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyLengthInvalid, KeyUnwrapFailed, SealBroken, SealedMalformed } from '../../src/infrastructure/cipher/errors.js';
import { keyedHash } from '../../src/infrastructure/cipher/keyed-hash.js';
import { freshRandomBytes } from '../../src/infrastructure/cipher/random-pool.js';
import { unwrapKey, wrapKey } from '../../src/infrastructure/cipher/key-wrap.js';
import { open, seal, type SealContext } from '../../src/infrastructure/cipher/seal.js';
import { sealedSchema } from '../../src/domain/events/sealed.js';

const key = randomBytes(32);
const context: SealContext = { tenant: 'acme', subject: 'user-1', memoryId: 'm-1', field: 'value' };
const plaintext = JSON.stringify({ type: 'text', text: '+1 555 0100 7788' });

function flipByte(base64: string, index: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString('base64');
}

describe('seal / open', () => {
  it('round-trips and produces the domain envelope without the plaintext in it', () => {
    const sealed = seal(plaintext, key, 'mk_1', context);
    expect(sealedSchema.parse(sealed)).toEqual(sealed);
    expect(Object.keys(sealed).sort()).toEqual(['alg', 'ct', 'iv', 'keyId']);
    expect(JSON.stringify(sealed)).not.toContain('555');
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.ct, 'base64')).toHaveLength(Buffer.byteLength(plaintext) + 16);
    expect(open(sealed, key, context)).toBe(plaintext);
  });

  it('never hands out the same nonce, across many refills of the random pool, and draws are copies', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(seal('x', key, 'mk_1', context).iv);
    expect(seen.size).toBe(20_000);
    const a = freshRandomBytes(32);
    const copy = Buffer.from(a);
    const b = freshRandomBytes(32);
    expect(a.equals(b)).toBe(false);
    b.fill(0); // a later draw's buffer is not a view of an earlier one
    expect(a.equals(copy)).toBe(true);
    expect(freshRandomBytes(10_000)).toHaveLength(10_000);
  });

  it('uses a fresh nonce each time', () => {
    const a = seal(plaintext, key, 'mk_1', context);
    const b = seal(plaintext, key, 'mk_1', context);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ct).not.toBe(b.ct);
  });

  it('detects tampering with the ciphertext, the tag, the nonce or the keyId', () => {
    const sealed = seal(plaintext, key, 'mk_1', context);
    const ctLength = Buffer.from(sealed.ct, 'base64').length;
    const tampered = [
      { ...sealed, ct: flipByte(sealed.ct, 0) },
      { ...sealed, ct: flipByte(sealed.ct, ctLength - 1) },
      { ...sealed, iv: flipByte(sealed.iv, 5) },
      { ...sealed, keyId: 'mk_2' },
    ];
    for (const envelope of tampered) {
      expect(() => open(envelope, key, context)).toThrow(SealBroken);
    }
  });

  it('refuses to open under another tenant, subject, memory or field, or with another key', () => {
    const sealed = seal(plaintext, key, 'mk_1', context);
    for (const other of [
      { ...context, tenant: 'other' },
      { ...context, subject: 'user-2' },
      { ...context, memoryId: 'm-2' },
      { ...context, field: 'content' },
      { tenant: context.tenant, subject: context.subject },
    ]) {
      expect(() => open(sealed, key, other)).toThrow(SealBroken);
    }
    expect(() => open(sealed, randomBytes(32), context)).toThrow(SealBroken);
  });

  it('names the malformed part of an envelope', () => {
    const sealed = seal(plaintext, key, 'mk_1', context);
    const cases: Array<[unknown, string]> = [
      [{ ...sealed, alg: 'A128GCM' }, 'alg'],
      [{ ...sealed, keyId: '' }, 'keyId'],
      [{ ...sealed, iv: 'not base64!' }, 'iv'],
      [{ ...sealed, iv: Buffer.alloc(8).toString('base64') }, 'iv'],
      [{ ...sealed, ct: Buffer.alloc(15).toString('base64') }, 'ct'],
      [null, 'sealed'],
    ];
    for (const [envelope, field] of cases) {
      let caught: unknown;
      try {
        open(envelope as never, key, context);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SealedMalformed);
      expect((caught as SealedMalformed).field).toBe(field);
    }
  });

  it("refuses what is not padded standard base64, though Node's lenient decoder would read it, and still opens a padded last group with unused bits set", () => {
    // 21 bytes of plaintext: a 37-byte body, whose base64 ends in a group with two padding characters.
    const sealed = seal('a'.repeat(21), key, 'mk_1', context);
    expect(sealed.ct.endsWith('==')).toBe(true);
    const body = sealed.ct.slice(0, -2);
    const malformed = [
      sealed.ct.slice(0, 8) + '\n' + sealed.ct.slice(8),
      ` ${sealed.ct}`,
      body, // padding left out
      sealed.ct.slice(0, 4) + '=' + sealed.ct.slice(5),
      `${sealed.ct}AAAA`,
      `${sealed.ct.slice(0, -4)}A===`,
      sealed.ct.slice(0, -1),
      `-${sealed.ct.slice(1)}`, // the URL-safe alphabet
      `${sealed.ct.slice(0, 5)}_${sealed.ct.slice(6)}`,
    ];
    for (const ct of malformed) {
      expect(Buffer.from(ct, 'base64').length).toBeGreaterThan(0);
      expect(() => open({ ...sealed, ct }, key, context)).toThrow(
        expect.objectContaining({ name: 'SealedMalformed', field: 'ct', message: expect.stringContaining('is not base64') as string }),
      );
    }
    // The last group's unused low bits are not part of the bytes: set, the envelope is the same and opens (as it always did).
    const last = sealed.ct.at(-3)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const loose = `${sealed.ct.slice(0, -3)}${alphabet[alphabet.indexOf(last) | 0b1111]}==`;
    expect(loose).not.toBe(sealed.ct);
    expect(open({ ...sealed, ct: loose }, key, context)).toBe('a'.repeat(21));
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => seal(plaintext, randomBytes(16), 'mk_1', context)).toThrow(KeyLengthInvalid);
    expect(() => keyedHash(randomBytes(31), 'x')).toThrow(KeyLengthInvalid);
  });
});

describe('keyedHash', () => {
  it('is HMAC-SHA256 hex: stable under one key, different under another', () => {
    const hashKey = randomBytes(32);
    const value = '{"text":"+1 555 0100 7788","type":"text"}';
    const hash = keyedHash(hashKey, value);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedHash(hashKey, value)).toBe(hash);
    expect(keyedHash(randomBytes(32), value)).not.toBe(hash);
    expect(keyedHash(hashKey, `${value} `)).not.toBe(hash);
  });
});

describe('key wrap', () => {
  it('unwraps only with the same wrapping key and associated data', () => {
    const kek = randomBytes(32);
    const inner = randomBytes(32);
    const aad = Buffer.from('row-1');
    const wrapped = wrapKey(kek, inner, aad);
    expect(wrapped).toHaveLength(12 + 32 + 16);
    expect(wrapped.includes(inner)).toBe(false);
    expect(unwrapKey(kek, wrapped, aad, 'k')).toEqual(inner);
    expect(() => unwrapKey(kek, wrapped, Buffer.from('row-2'), 'k')).toThrow(KeyUnwrapFailed);
    expect(() => unwrapKey(randomBytes(32), wrapped, aad, 'k')).toThrow(KeyUnwrapFailed);
    expect(() => unwrapKey(kek, wrapped.subarray(0, 20), aad, 'k')).toThrow(KeyUnwrapFailed);
  });
});
