// What a recall answer served, as the content-free RecallServed record
// (issue 18 item 1): each item at its position with the memories (id and
// version) it shows, its kind, key, tokens, and when a question was asked
// its score, rank and reason codes with their contributions. Never a value,
// a content, a matched term or the question in clear.
import type { RecallServed, ServedItem } from '../../domain/events/recall-events.js';
import type { RecallItem } from './items.js';
import type { RecallAnswer } from './recall.js';
import type { RecallRequest } from './request.js';

function servedMemories(item: RecallItem): ServedItem['memories'] {
  switch (item.type) {
    case 'memory':
      return [{ memoryId: item.memoryId, version: item.provenance.version }];
    case 'claim':
    case 'open_item':
      return item.provenance.derivedFrom.map((p) => ({ memoryId: p.memoryId, version: p.version }));
    case 'conflict':
      return item.sides.flatMap((s) => ('provenance' in s ? [{ memoryId: s.memoryId, version: s.provenance.version }] : []));
  }
}

/** The memories a served item names in the record: the question's shares are sealed under their keys. */
export const recordedMemoryIds = (item: RecallItem): string[] => servedMemories(item).map((m) => m.memoryId);

function servedItem(item: RecallItem, position: number): ServedItem {
  const r = item.retrieval;
  return {
    position,
    type: item.type,
    memories: servedMemories(item),
    ...(item.type === 'memory' ? { kind: item.kind as ServedItem['kind'] } : {}),
    ...(item.type === 'memory' || item.type === 'claim' || item.type === 'conflict' ? { key: item.key } : {}),
    ...(item.type === 'conflict' ? { conflictId: item.conflictId } : {}),
    ...(item.type === 'claim' || item.type === 'open_item' ? { artifactId: item.provenance.artifactId } : {}),
    tokens: item.tokens,
    ...(r ? { score: r.score, rank: r.rank, reasons: r.reasons.map((x) => ({ code: x.code, contribution: x.contribution })) } : {}),
  };
}

export function recallRecord(
  recallId: string,
  answer: Omit<RecallAnswer, 'recallId'>,
  request: RecallRequest,
  servedAt: string,
): RecallServed {
  const q = request.retrieval;
  return {
    recallId,
    subjectRevision: answer.revision,
    inputEpoch: answer.inputEpoch,
    source: answer.source,
    reason: answer.reason,
    parameters: {
      scopes: request.scopes,
      maxSensitivity: request.maxSensitivity,
      ...(request.purpose !== undefined ? { purpose: request.purpose } : {}),
      budget: request.budget ?? null,
      now: answer.now,
      asked: q !== undefined,
      ...(q ? { topK: q.topK } : {}),
      ...(q?.key !== undefined ? { key: q.key } : {}),
      ...(q?.kind !== undefined ? { kind: q.kind } : {}),
      ...(q?.minScore !== undefined ? { minScore: q.minScore } : {}),
    },
    items: answer.items.map((item, i) => servedItem(item, i + 1)),
    omitted: answer.omitted.length,
    excluded: { ...answer.excluded },
    servedAt,
  };
}

/** Every memory the record says was served, once each. */
export const servedMemoryIds = (record: RecallServed): string[] => [
  ...new Set(record.items.flatMap((i) => i.memories.map((m) => m.memoryId))),
];
