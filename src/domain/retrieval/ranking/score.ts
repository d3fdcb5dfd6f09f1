// Seed 003's score, after fusion: relevance + source trust + freshness +
// confidence + explicit priority - staleness - privacy risk (redundancy
// and conflicts are judged over hits: units.ts, diversity.ts). Each term
// is a reason with its contribution. Freshness is the lifecycle's decay
// (src/domain/lifecycle/decay.ts) with the policy's half-life of the kind.
import { halfLifeFactor } from '../../lifecycle/decay.js';
import type { IndexedDocument } from '../corpus/retrieval-index.js';
import type { Relevance } from './fusion.js';
import type { RetrievalPolicy } from './policy.js';
import type { RetrievalReason } from './reasons.js';

const DAY = 86_400_000;

export interface Scored {
  readonly id: string;
  readonly score: number;
  readonly keyMatched: boolean;
  readonly reasons: readonly RetrievalReason[];
}

export function scoreDocument(
  indexed: IndexedDocument,
  relevance: Pick<Relevance, 'value' | 'fused' | 'strength' | 'keyMatched'>,
  context: readonly RetrievalReason[],
  now: number,
  policy: RetrievalPolicy,
): Scored {
  const doc = indexed.document;
  const w = policy.weights;
  const ageDays = Math.max(0, (now - indexed.observedAt) / DAY);
  const halfLife = policy.halfLifeDays[doc.kind];
  const shownAge = Math.round(ageDays * 100) / 100;
  const reasons: RetrievalReason[] = [
    { code: 'relevance', contribution: w.relevance * relevance.value, fused: relevance.fused, strength: relevance.strength },
    ...context,
    { code: 'trust', contribution: w.trust * policy.trustScale[doc.trust], level: doc.trust },
    {
      code: 'freshness',
      contribution: w.freshness * halfLifeFactor(ageDays * 86_400, halfLife * 86_400),
      ageDays: shownAge,
      halfLifeDays: Number.isFinite(halfLife) ? halfLife : null,
    },
    { code: 'confidence', contribution: w.confidence * (doc.confidence ?? policy.unknownConfidence), value: doc.confidence },
  ];
  const priority = Math.min(1, Math.max(0, doc.priority ?? 0));
  if (priority > 0) reasons.push({ code: 'priority', contribution: w.priority * priority, value: priority });
  const feedback = doc.feedback;
  if (feedback && (feedback.reinforced > 0 || feedback.ignored > 0)) {
    const contribution = w.reinforcement * (1 - 0.5 ** feedback.reinforced) - policy.penalties.ignored * (1 - 0.5 ** feedback.ignored);
    reasons.push({ code: 'feedback', contribution, reinforced: feedback.reinforced, ignored: feedback.ignored });
  }
  const staleAfter = policy.staleAfterDays[doc.kind];
  if (ageDays > staleAfter) {
    reasons.push({ code: 'stale', contribution: -policy.penalties.stale, ageDays: shownAge, staleAfterDays: staleAfter, kind: doc.kind });
  }
  const privacy = policy.penalties.sensitivity[doc.sensitivity];
  if (privacy > 0) reasons.push({ code: 'privacy', contribution: -privacy, sensitivity: doc.sensitivity });
  let score = 0;
  for (const r of reasons) score += r.contribution;
  return { id: doc.id, score, keyMatched: relevance.keyMatched, reasons };
}
