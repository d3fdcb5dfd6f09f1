// The compaction record as `assess` shows it to the reader who continues
// from it: the clear record, each anchor with what it says (opened from the
// sealed statements; absent when they cannot be opened or the record was
// upcast from an artifact without them).
import type { Anchor, AnchorStatements, CompactionRecord } from '../../domain/compaction/record.js';

export type RecordView = Omit<CompactionRecord, 'anchors'> & {
  readonly anchors: ReadonlyArray<Anchor & { readonly statement?: string }>;
};

export function recordView(record: CompactionRecord, statements: AnchorStatements | undefined): RecordView {
  return {
    ...record,
    anchors: record.anchors.map((a) => {
      const statement = statements?.[a.id];
      return statement !== undefined ? { ...a, statement } : a;
    }),
  };
}
