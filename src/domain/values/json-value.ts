// Plain JSON data (what `json` values and canonical forms may hold), checked
// with the path of the first offending place.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const MAX_JSON_DEPTH = 32;

/** Returns undefined when `value` is plain JSON, else the relative path and why. */
export function findNonJson(value: unknown, depth = 0): { path: Array<string | number>; message: string } | undefined {
  if (depth > MAX_JSON_DEPTH) return { path: [], message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path: [], message: 'must be a finite number' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = findNonJson(value[i], depth + 1);
      if (inner) return { path: [i, ...inner.path], message: inner.message };
    }
    return undefined;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, inner] of Object.entries(value)) {
      const found = findNonJson(inner, depth + 1);
      if (found) return { path: [key, ...found.path], message: found.message };
    }
    return undefined;
  }
  return { path: [], message: `is not JSON data (${value === undefined ? 'undefined' : typeof value})` };
}
