// The checks an erasure can run with the ledger alone (no projections):
//   keys       every key of the erased entries and of the artifacts deriving
//              from them is destroyed, and this process keeps none of them
//              unwrapped in memory;
//   event_log  the raw subject stream and the subject's artifact streams hold
//              neither the plaintext nor an unkeyed hash of it (they hold
//              ciphertext, and keyed hashes: see DESIGN section 8 and
//              docs in forget.ts on why those stay);
//   artifacts  no artifact output of the subject that can still be opened
//              says it, and none deriving from the erased entries opens;
//   vectors    the vector store keeps no row of an erased entry;
//   recalls    the recall records hold no plaintext or unkeyed hash, and the
//              question of a recall that served an erased entry (every
//              question, for a subject erasure) no longer opens.
import { artifactStreamName, subjectStreamName } from '../../domain/events/stream-names.js';
import type { EventStore, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { KeyStore } from '../../infrastructure/key-store/port.js';
import type { VectorStore } from '../../infrastructure/vectors/port.js';
import { openOutput } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { openRecallQuery, readRecalls } from '../recalls/recall-records.js';
import { findNeedles } from './needles.js';
import { passedOrFailed, subjectArtifactIds, type ErasureCheck } from './verification.js';

const PAGE = 4096;

async function readAllOf(store: EventStore, stream: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: out.length, maxCount: PAGE });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

export function keysCheck(keys: KeyStore): ErasureCheck {
  return {
    path: 'keys',
    async run(target) {
      const listed = await keys.listKeyIds(target.ref);
      const artifacts = await keys.listArtifactKeyIds(target.ref);
      const erased = new Set(target.memoryIds);
      const derived = new Set(target.artifactIds);
      const states = [
        ...(target.scope === 'subject' && listed.subject ? [listed.subject.state] : []),
        ...listed.memories.filter((m) => erased.has(m.memoryId)).map((m) => m.state),
        ...artifacts.filter((a) => derived.has(a.artifactId)).map((a) => a.state),
      ];
      const missing = target.memoryIds.filter((id) => !listed.memories.some((m) => m.memoryId === id)).length;
      // Keys this process unwrapped and keeps in memory (the key store's own cache): none of the erased may be left.
      const held = keys.unwrappedKeysHeld?.(target.ref, target.scope === 'subject' ? 'subject' : target.memoryIds) ?? 0;
      return passedOrFailed(states.length + missing, states.filter((s) => s === 'live').length + held);
    },
  };
}

export function eventLogCheck(store: EventStore, keys: KeyStore): ErasureCheck {
  return {
    path: 'event_log',
    async run(target) {
      const streams = [
        subjectStreamName(target.ref.tenant, target.ref.subject),
        ...(await subjectArtifactIds(keys, target)).map(artifactStreamName),
      ];
      let searched = 0;
      let findings = 0;
      for (const stream of streams) {
        for (const event of await readAllOf(store, stream)) {
          searched += 1;
          findings += findNeedles(JSON.stringify([event.data, event.metadata]), target.needles, ['plaintext', 'sha256']);
        }
      }
      return passedOrFailed(searched, findings, 'the immutable log keeps ciphertext and keyed hashes, not searched for the keyed hashes');
    },
  };
}

export function artifactOutputsCheck(store: EventStore, keys: KeyStore): ErasureCheck {
  return {
    path: 'artifacts',
    async run(target) {
      const derived = new Set(target.artifactIds);
      let searched = 0;
      let findings = 0;
      for (const artifactId of await subjectArtifactIds(keys, target)) {
        const record = await readArtifact(store, artifactId);
        if (!record.generated) continue;
        searched += 1;
        const output = await openOutput(keys, target.ref, artifactId, record.generated.output);
        if (output === undefined) continue;
        if (derived.has(artifactId)) findings += 1;
        else findings += findNeedles(JSON.stringify(output), target.needles);
      }
      return passedOrFailed(searched, findings);
    },
  };
}

/** The vector store holds no row of an erased memory (of the subject, for a subject erasure), of any model. */
export function vectorsCheck(vectors: VectorStore): ErasureCheck {
  return {
    path: 'vectors',
    async run(target) {
      const rows = await vectors.count(target.ref, target.scope === 'subject' ? undefined : target.memoryIds);
      return passedOrFailed(target.scope === 'subject' ? 1 : target.memoryIds.length, rows);
    },
  };
}

export function recallsCheck(store: EventStore, keys: KeyStore): ErasureCheck {
  return {
    path: 'recalls',
    async run(target) {
      const erased = new Set(target.memoryIds);
      let findings = 0;
      const recalls = await readRecalls(store, target.ref);
      for (const { recall } of recalls) {
        findings += findNeedles(JSON.stringify(recall), target.needles, ['plaintext', 'sha256']);
        const query = recall.parameters.query;
        const served = recall.items.some((i) => i.memories.some((m) => erased.has(m.memoryId)));
        if (query && (target.scope === 'subject' || served)) {
          if ((await openRecallQuery(keys, target.ref, recall.recallId, query)) !== undefined) findings += 1;
        }
      }
      return passedOrFailed(recalls.length, findings);
    },
  };
}

export function ledgerChecks(ledger: {
  readonly eventStore: EventStore;
  readonly keyStore: KeyStore;
  readonly retrieval?: { readonly vectors: VectorStore };
}): ErasureCheck[] {
  const { eventStore: store, keyStore: keys } = ledger;
  return [
    keysCheck(keys),
    eventLogCheck(store, keys),
    artifactOutputsCheck(store, keys),
    recallsCheck(store, keys),
    ...(ledger.retrieval ? [vectorsCheck(ledger.retrieval.vectors)] : []),
  ];
}
