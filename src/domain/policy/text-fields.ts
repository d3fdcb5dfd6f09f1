// Every text an entry carries, with the dotted path the detectors report:
// content, the memory key, text-like values, every string (and object key)
// in a JSON value, source refs, the consent ref, and anticipated queries when
// the entry has them. A secret or an identifier may hide in any of them.
import type { MemoryEntry } from '../entry/entry.js';
import type { JsonValue } from '../values/json-value.js';

/** What the gate reads of an entry: a MemoryEntry fits, and so does an entry that also carries anticipated queries. */
export type GateEntry = Pick<MemoryEntry, 'kind' | 'key' | 'value' | 'source' | 'sensitivity' | 'polarity'> &
  Partial<Pick<MemoryEntry, 'content' | 'consentRef' | 'confidence'>> & { readonly anticipatedQueries?: readonly string[] };

export interface TextField {
  readonly field: string;
  readonly text: string;
  /** Read before the text but not part of it (a JSON member's name: `"password": "…"` is a password shape); spans stay relative to `text`. */
  readonly context?: string;
}

/** A JSON member key is used in a path only when it is plainly a name; otherwise its position stands in, so that a path never repeats what a key might hide. */
const PLAIN_MEMBER = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

function jsonFields(json: JsonValue, path: string, out: TextField[]): void {
  if (typeof json === 'string') {
    out.push({ field: path, text: json });
  } else if (typeof json === 'number') {
    out.push({ field: path, text: String(json) });
  } else if (Array.isArray(json)) {
    json.forEach((item, i) => jsonFields(item, `${path}.${i}`, out));
  } else if (json !== null && typeof json === 'object') {
    Object.entries(json).forEach(([member, inner], i) => {
      const label = PLAIN_MEMBER.test(member) ? member : `#${i}`;
      if (!PLAIN_MEMBER.test(member)) out.push({ field: `${path}.${label}.(key)`, text: member });
      if (typeof inner === 'string' || typeof inner === 'number')
        out.push({ field: `${path}.${label}`, text: String(inner), context: `${member}: ` });
      else jsonFields(inner, `${path}.${label}`, out);
    });
  }
}

export function textFieldsOf(entry: GateEntry): TextField[] {
  const out: TextField[] = [{ field: 'key', text: entry.key }];
  if (entry.content !== undefined) out.push({ field: 'content', text: entry.content });
  const { value } = entry;
  switch (value.type) {
    case 'text':
      out.push({ field: 'value.text', text: value.text });
      break;
    case 'entity':
      out.push({ field: 'value.id', text: value.id });
      break;
    case 'number':
      out.push({ field: 'value.amount', text: String(value.amount) });
      if (value.unit !== undefined) out.push({ field: 'value.unit', text: value.unit });
      break;
    case 'json':
      jsonFields(value.json, 'value.json', out);
      break;
    case 'date':
    case 'boolean':
      break;
    default: {
      const never: never = value;
      throw new TypeError(`unknown value ${JSON.stringify(never)}`);
    }
  }
  entry.source.refs.forEach((ref, i) => out.push({ field: `source.refs.${i}`, text: ref }));
  if (entry.consentRef !== undefined) out.push({ field: 'consentRef', text: entry.consentRef });
  entry.anticipatedQueries?.forEach((query, i) => out.push({ field: `anticipatedQueries.${i}`, text: query }));
  return out;
}
