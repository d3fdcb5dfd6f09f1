// A recall answer's JSON, as JSON.stringify writes it, in UTF-8, written from
// bytes kept per item object, since writing an item's JSON again was the
// largest single cost of a recall:
// - without a question, a warm recall of an unchanged subject serves the very
//   item objects it served before (recall.ts keeps its standing order per
//   reader): their bytes are kept as they are;
// - with one, each item is made for the answer from an item the corpus keeps
//   ({ ...item, retrieval } for its explanation, then { ...that, priority }
//   for its place: explainedItem, prioritisedItem): its JSON is the kept
//   item's, split around `priority`, with the place and the explanation
//   written in.
// As bytes, the answer is copied together once and written as it is (a
// string would be flattened, then measured and encoded again by the HTTP
// layer). Items are never changed once made (a kept item is shared by answers).

const itemBytes = new WeakMap<object, Buffer>();
/** An item's members before `priority` (with its name) and after it, as JSON.stringify writes them; null without one. */
const aroundPriority = new WeakMap<object, { readonly head: Buffer; readonly tail: Buffer } | null>();
const explainedFrom = new WeakMap<object, { readonly item: object; readonly retrieval: object }>();
const prioritisedFrom = new WeakMap<object, { readonly item: object; readonly priority: number }>();

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
const RETRIEVAL = Buffer.from(',"retrieval":');

/** `{ ...item, retrieval }`, its JSON written from the item's. */
export function explainedItem<T extends object, R extends object>(item: T, retrieval: R): T & { retrieval: R } {
  const explained = { ...item, retrieval };
  explainedFrom.set(explained, { item, retrieval });
  return explained;
}

/** `{ ...item, priority }`, its JSON written from the item's. */
export function prioritisedItem<T extends object>(item: T, priority: number): T & { priority: number } {
  const prioritised = { ...item, priority };
  prioritisedFrom.set(prioritised, { item, priority });
  return prioritised;
}

/** The members around `name` of an object, as JSON.stringify writes them: `{…,"name":` and `,…` (empty when none follow). */
function splitAt(item: object, name: string): { head: Buffer; tail: Buffer } | null {
  const entries = Object.entries(item);
  const at = entries.findIndex(([key]) => key === name);
  if (at < 0) return null;
  const before = JSON.stringify(Object.fromEntries(entries.slice(0, at)));
  const after = JSON.stringify(Object.fromEntries(entries.slice(at + 1)));
  return {
    head: Buffer.from(`${before === '{}' ? '{' : `${before.slice(0, -1)},`}${JSON.stringify(name)}:`),
    tail: Buffer.from(after === '{}' ? '' : `,${after.slice(1, -1)}`),
  };
}

function keptJson(item: object): Buffer {
  let bytes = itemBytes.get(item);
  if (bytes === undefined) {
    bytes = madeJson(item);
    itemBytes.set(item, bytes);
  }
  return bytes;
}

/** An item's JSON; from the kept item's parts when it was prioritised (and explained) from one with a priority and no explanation. */
function madeJson(item: object): Buffer {
  const prioritised = prioritisedFrom.get(item);
  if (prioritised) {
    const explained = explainedFrom.get(prioritised.item);
    const base = explained?.item ?? prioritised.item;
    let parts = aroundPriority.get(base);
    if (parts === undefined) {
      parts = Object.hasOwn(base, 'retrieval') ? null : splitAt(base, 'priority');
      aroundPriority.set(base, parts);
    }
    if (parts) {
      const written = [parts.head, Buffer.from(JSON.stringify(prioritised.priority)), parts.tail];
      if (explained) written.push(RETRIEVAL, Buffer.from(JSON.stringify(explained.retrieval), 'utf8'));
      written.push(CLOSE);
      return Buffer.concat(written);
    }
  }
  return Buffer.from(JSON.stringify(item), 'utf8');
}

/**
 * JSON.stringify(answer) in UTF-8. `itemsKept`: the items may be served
 * again (an answer without a question): their bytes are kept with them.
 */
export function recallAnswerJson(answer: { readonly items: readonly object[] }, itemsKept: boolean): Buffer {
  const parts = splitAt(answer, 'items')!;
  const written: Buffer[] = [parts.head, Buffer.from('[')];
  answer.items.forEach((item, i) => {
    if (i > 0) written.push(COMMA);
    written.push(itemsKept ? keptJson(item) : madeJson(item));
  });
  written.push(Buffer.from(']'), parts.tail, CLOSE);
  return Buffer.concat(written);
}
