// A recall answer's JSON, as JSON.stringify writes it, in UTF-8, with each
// item's bytes kept per item object: a warm recall of an unchanged subject
// without a question serves the very item objects it served before (recall.ts
// keeps its standing order per reader), and writing their JSON again was the
// largest single cost of such a recall (12% of its CPU at 50 memories). As
// bytes, the answer is copied together once and written as it is (a string
// would be flattened, then measured and encoded again by the HTTP layer).
// Items are never changed once made (a kept item is shared by answers).

const itemBytes = new WeakMap<object, Buffer>();

function itemJson(item: object): Buffer {
  let bytes = itemBytes.get(item);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(item), 'utf8');
    itemBytes.set(item, bytes);
  }
  return bytes;
}

const COMMA = Buffer.from(',');

/**
 * JSON.stringify(answer) in UTF-8; `items` from the kept bytes when the
 * items may be kept ones (an answer without a question), otherwise written
 * at once (a question's items are made for it: keeping them would only cost).
 */
export function recallAnswerJson(answer: { readonly items: readonly object[] }, itemsKept: boolean): Buffer {
  if (!itemsKept) return Buffer.from(JSON.stringify(answer), 'utf8');
  const entries = Object.entries(answer);
  const at = entries.findIndex(([key]) => key === 'items');
  // The members around `items`, in their order, as JSON.stringify writes them ("{}" when there are none).
  const before = JSON.stringify(Object.fromEntries(entries.slice(0, at)));
  const after = JSON.stringify(Object.fromEntries(entries.slice(at + 1)));
  const parts: Buffer[] = [Buffer.from(`${before === '{}' ? '{' : `${before.slice(0, -1)},`}"items":[`)];
  answer.items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(itemJson(item));
  });
  parts.push(Buffer.from(`]${after === '{}' ? '}' : `,${after.slice(1)}`}`));
  return Buffer.concat(parts);
}
