// Values and sealed fields as an auditor reads them: a personal field shows
// only where the API returned it readable; a destroyed key shows as such.
import type { OpenedField, PersonalFields, Value } from '../api/types.js';

export function valueText(value: Value): string {
  switch (value.type) {
    case 'text':
      return value.text;
    case 'number':
      return value.unit ? `${value.amount} ${value.unit}` : String(value.amount);
    case 'date':
      return value.date;
    case 'entity':
      return value.id;
    case 'boolean':
      return value.value ? 'yes' : 'no';
    case 'json':
      return JSON.stringify(value.json);
  }
}

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
