// The measured subjects of the recall-query bench: a customer history
// (bench/support/customer-history.ts, English and Chinese) made into n
// distinct slots — each entry's key gets its own suffix and scopes are
// dropped — so every entry stays one active memory every reader sees; and
// the questions asked of it, most about things the history holds.
import type { MemoryEntry } from '../../src/domain/entry/entry.js';
import { validateImportLines } from '../../src/commands/import.js';
import { customerHistory } from '../support/customer-history.js';

export interface MeasuredSubject {
  readonly entries: readonly MemoryEntry[];
  /** What plain BM25 indexes: the plaintext a recall decrypts (content and the value's text). */
  readonly texts: ReadonlyArray<{ readonly id: string; readonly content: string; readonly value: string }>;
  readonly queries: readonly string[];
}

const QUESTIONS = [
  'which orders were delayed',
  'can we phone this customer about deliveries',
  'who has access to the billing board',
  'when is the weekly sync and what is the budget',
  'refund status for the returned order',
  'how are invoices paid',
  'which courier ships large parcels',
  '这位客户能打电话吗',
  '哪些订单延误了',
  '发票怎么付款',
  '退款什么时候到账',
  '谁负责核对发票',
];

export function measuredSubject(size: number): MeasuredSubject {
  const history = customerHistory(size, size);
  const entries = validateImportLines(
    history.map((entry, i) => ({
      kind: entry.kind,
      key: `${entry.key}.n${i}`,
      value: entry.value,
      ...(entry.polarity ? { polarity: entry.polarity } : {}),
      content: entry.content,
      source: entry.source,
      validFrom: entry.validFrom,
    })),
  );
  const texts = history.map((entry, i) => ({
    id: `n${i}`,
    content: entry.content,
    value: typeof entry.value.text === 'string' ? entry.value.text : JSON.stringify(entry.value),
  }));
  // Order and invoice ids named in the history: exact-id questions, as an agent asks them.
  const ids = [...new Set(history.flatMap((entry) => entry.content.match(/\b(?:ORD|INV)-[A-Z0-9-]+\b/g) ?? []))].slice(0, 8);
  return { entries, texts, queries: [...QUESTIONS, ...ids.map((id) => `what happened with ${id}`)] };
}
