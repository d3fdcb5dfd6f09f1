// The record an artifact event written without one reads as (v0: the
// manifest's pointers, nothing left out): for tests that write artifact
// events by hand.
import { legacyRecord } from '../../src/domain/compaction/legacy.js';
import { compactionRecordSchema, type CompactionRecord } from '../../src/domain/compaction/record.js';
import type { Manifest } from '../../src/domain/events/manifest.js';

export function legacyRecordOf(manifest: Manifest): CompactionRecord {
  return compactionRecordSchema.parse(legacyRecord(manifest, []));
}
