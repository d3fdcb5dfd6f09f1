// Values and sealed fields as an auditor reads them: a personal field shows
// only where the API returned it readable; a destroyed key shows as such.
import { renderValue } from '../../../src/domain/consolidation/rendering.js';
import type { OpenedField, PersonalFields, Value } from '../api/types.js';

/** The server's own plain-text rendering (the one recall's item texts and summaries use). */
export const valueText: (value: Value) => string = renderValue;

export function Forgotten() {
  return (
    <span class="badge badge-forgotten" title="the key of this field was destroyed: it can never be read again">
      forgotten (key destroyed)
    </span>
  );
}

export function PersonalValue({ personal, polarity }: { readonly personal: PersonalFields; readonly polarity?: string }) {
  if (personal.status !== 'readable') return <Forgotten />;
  return (
    <span class="value">
      {polarity === 'negated' ? <span class="negated">NOT </span> : null}
      {valueText(personal.value)}
    </span>
  );
}

export function OpenedValue({ field }: { readonly field: OpenedField<Value> | undefined }) {
  if (!field) return null;
  return field.status === 'readable' ? <span class="value">{valueText(field.plaintext)}</span> : <Forgotten />;
}

export function OpenedText({ field }: { readonly field: OpenedField<string> | undefined }) {
  if (!field) return null;
  return field.status === 'readable' ? <q class="content">{field.plaintext}</q> : <Forgotten />;
}

/** `2026-07-01T09:00:00.000Z` -> `2026-07-01 09:00 UTC`; seconds and milliseconds are shown when they are not zero. */
export function instantText(iso: string): string {
  return iso
    .replace('T', ' ')
    .replace(/:00\.000Z$/, 'Z')
    .replace(/\.000Z$/, 'Z')
    .replace('Z', ' UTC');
}

export function Instant({ iso }: { readonly iso: string | null | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  return <time dateTime={iso}>{instantText(iso)}</time>;
}

/** Ids are long: shown whole (auditors compare them), in a monospace face that wraps. */
export function Id({ id }: { readonly id: string }) {
  return <code class="id">{id}</code>;
}
