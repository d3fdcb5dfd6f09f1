// The read side's erasure checks, handed to the erasure pipeline (or run
// again later, see verify-erasure.ts). Add a path here when the read side grows one.
import type { ErasureCheck } from '../../reads/erasure/verification.js';
import type { ReadSide } from '../read-side.js';
import { retrievalIndexCheck } from './index-cache-check.js';
import { projectionTablesChecks } from './projection-check.js';
import { asOfCheck, eventsCheck, lineageCheck, recallCheck, replayCheck } from './read-checks.js';

export function readSideErasureChecks(read: ReadSide): ErasureCheck[] {
  return [
    recallCheck(read),
    retrievalIndexCheck(read),
    asOfCheck(read),
    replayCheck(read),
    lineageCheck(read),
    eventsCheck(read),
    ...projectionTablesChecks(read.projections),
  ];
}
