// Text must be well-formed Unicode: a lone surrogate (half of a UTF-16 pair,
// U+D800-U+DFFF on its own) has no UTF-8 form, so it cannot be hashed in
// canonical JSON, sealed, or stored by PostgreSQL; silently turning it into
// U+FFFD would change what the client said. Every boundary refuses it,
// naming the field (parseWith runs this before the schema).

/** In a `u` regex a surrogate pair is one code point: only an unpaired surrogate is \p{Cs}. */
const LONE_SURROGATE = /\p{Cs}/u;

export const ILL_FORMED_REASON = 'must be well-formed Unicode text: it holds a lone surrogate (an unpaired \\uD800-\\uDFFF)';

/** The path of the first string (or object key) in a JSON-like value that holds a lone surrogate. */
export function findLoneSurrogate(value: unknown): ReadonlyArray<string | number> | undefined {
  const stack: Array<{ value: unknown; path: ReadonlyArray<string | number> }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i] });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (LONE_SURROGATE.test(key)) return [...path, key];
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return undefined;
}

export const INVALID_UTF8_REASON = 'must be valid UTF-8 (a byte sequence in it is not)';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text, or undefined when they are not valid UTF-8 (never U+FFFD in place of what was sent). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
