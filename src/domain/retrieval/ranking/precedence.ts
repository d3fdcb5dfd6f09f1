// Within one slot (key + scopes), a less trusted statement never ranks
// above a more trusted one (seed 003: a low-confidence model inference must
// not outrank the user's own statement on the same key). Relevance may
// favour the inference's wording; its score is then held just below the
// trusted statement's, with the reason saying by whom.
import { trustRank } from '../../entry/source.js';
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import type { RetrievalReason } from './reasons.js';
import { byScore, type Unit } from './units.js';

const BELOW = 1e-6;

export function applyTrustPrecedence(index: RetrievalIndex, units: readonly Unit[]): Unit[] {
  const doc = (id: string) => index.documents.get(id)!;
  const trustOf = (unit: Unit) => Math.max(...unit.members.map((m) => trustRank(doc(m.id).document.trust)));
  const bySlot = new Map<string, Unit[]>();
  for (const unit of units) {
    const slot = doc(unit.id).slot;
    if (slot === undefined) continue;
    const group = bySlot.get(slot);
    if (group) group.push(unit);
    else bySlot.set(slot, [unit]);
  }
  const capped = new Map<Unit, Unit>();
  for (const group of bySlot.values()) {
    if (group.length < 2) continue;
    const ordered = [...group].sort((a, b) => trustOf(b) - trustOf(a) || byScore(a, b));
    let floor: { score: number; id: string } | undefined;
    let floorTrust = Infinity;
    let pending: { score: number; id: string } | undefined;
    for (const unit of ordered) {
      const trust = trustOf(unit);
      if (trust < floorTrust) {
        // Entering a lower trust level: everything above it now bounds it.
        if (pending && (!floor || pending.score < floor.score)) floor = pending;
        floorTrust = trust;
        pending = undefined;
      }
      let current = unit;
      if (floor && unit.score >= floor.score) {
        const reason: RetrievalReason = { code: 'outranked_by_trust', contribution: floor.score - BELOW - unit.score, by: floor.id };
        current = { ...unit, score: floor.score - BELOW, reasons: [...unit.reasons, reason] };
        capped.set(unit, current);
      }
      if (!pending || current.score < pending.score) pending = { score: current.score, id: current.id };
    }
  }
  return units.map((u) => capped.get(u) ?? u).sort(byScore);
}
