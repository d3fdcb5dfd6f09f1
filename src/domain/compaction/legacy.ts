// The record of an artifact written before compaction records (ArtifactGenerated
// v1), as its upcaster reads it: pointers to the manifest and its inputs,
// the cold tier as recoverable over_token_budget discards, and no anchors or
// loss checks — version v0, which a reader checking the record contract sees
// as changed (rebuild before continuing). Runs on stored data before it is
// validated, so it reads defensively; validation then names any bad field.
import { LEGACY_RECORD_VERSION, STOP_CONDITIONS } from './record.js';

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.filter(isObject) : []);

export function legacyRecord(manifest: unknown, coldTier: unknown): Loose {
  const m = isObject(manifest) ? manifest : {};
  const inputs = list(m['inputs']);
  const sequences = inputs.map((i) => i['sequence']).filter((n): n is number => typeof n === 'number');
  const pointers = [
    { id: 'manifest', kind: 'manifest', purpose: 'contract', artifactId: m['artifactId'] },
    ...inputs.map((i) => ({
      id: `mem:${String(i['memoryId'])}`,
      kind: 'memory_version',
      purpose: 'evidence',
      memoryId: i['memoryId'],
      sequence: i['sequence'],
    })),
  ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    version: LEGACY_RECORD_VERSION,
    stage: {
      trigger: 'schedule',
      fromSequence: sequences.length > 0 ? Math.min(...sequences) : 0,
      throughSequence: m['newCoversThrough'],
      inputEpoch: m['inputEpoch'],
      parentArtifactId: m['parentArtifactId'] ?? null,
    },
    anchors: [],
    pointers,
    keeps: [],
    discards: list(coldTier).map((c) => ({
      memoryId: c['memoryId'],
      category: c['reason'],
      reason: 'left out of the summary text to meet the token budget; still an input, its raw entry is served by recall',
      recoverable: true,
      pointerId: `mem:${String(c['memoryId'])}`,
    })),
    rehydration: { verify: [], refresh: [], stopIf: [...STOP_CONDITIONS], continueBy: 'next_reader', onStop: 'reviewer' },
    lossChecks: [],
  };
}
