// The read paths an erasure is checked against (DESIGN section 7): what
// recall, as-of, replay, lineage and the decoded event stream return about
// the subject, searched for the erased content, its SHA-256 and its keyed
// hashes. As-of and replay are asked now and at the moment each erased entry
// was recorded (what the system knew then must not come back either).
import { findNeedles } from '../../reads/erasure/needles.js';
import {
  checkedMoments,
  passedOrFailed,
  subjectArtifactIds,
  type ErasureCheck,
  type ErasureTarget,
} from '../../reads/erasure/verification.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { ProjectionNotBuilt } from '../../projections/index.js';
import { asOf } from '../as-of.js';
import { lineage } from '../lineage/lineage.js';
import type { ReadSide } from '../read-side.js';
import { composeRecall } from '../recall/recall.js';
import { requireRecallInput } from '../recall/request.js';
import { SubjectProjectionFaulted } from '../projection-faulted.js';
import { replay } from '../replay/replay.js';
import { readSubjectEvents } from '../subject-events.js';

type Answer = () => Promise<unknown>;

/** Runs each answer and searches its JSON; a projection not built yet skips the check. */
function searchAnswers(path: string, answers: (target: ErasureTarget) => Promise<Answer[]> | Answer[]): ErasureCheck {
  return {
    path,
    async run(target) {
      let searched = 0;
      let findings = 0;
      try {
        for (const answer of await answers(target)) {
          searched += 1;
          findings += findNeedles(JSON.stringify(await answer()), target.needles);
        }
      } catch (error) {
        if (error instanceof ProjectionNotBuilt) return { status: 'skipped', searched, findings, note: 'the projection is not built' };
        // A refused read serves nothing: there is nothing to search.
        if (error instanceof SubjectProjectionFaulted)
          return { status: 'skipped', searched, findings, note: 'the read is refused: the projection passed over an event of the subject' };
        throw error;
      }
      return passedOrFailed(searched, findings);
    },
  };
}

export function recallCheck(read: ReadSide): ErasureCheck {
  return searchAnswers('recall', (t) => [
    () => composeRecall(read, requireRecallInput({ tenant: t.ref.tenant, subject: t.ref.subject, maxSensitivity: 'restricted' })),
  ]);
}

export function asOfCheck(read: ReadSide): ErasureCheck {
  return searchAnswers('as_of', (t) =>
    checkedMoments(read.clock(), t).map((systemTime) => () => asOf(read, { tenant: t.ref.tenant, subject: t.ref.subject, systemTime })),
  );
}

export function replayCheck(read: ReadSide): ErasureCheck {
  return searchAnswers('replay', (t) =>
    checkedMoments(read.clock(), t).map((systemTime) => () => replay(read, { tenant: t.ref.tenant, subject: t.ref.subject, systemTime })),
  );
}

export function lineageCheck(read: ReadSide): ErasureCheck {
  return searchAnswers('lineage', async (t) => {
    // An artifact the projection does not know (its stream was never written) has no lineage to return.
    return (await subjectArtifactIds(read.keyStore, t)).map(
      (id) => () =>
        lineage(read, t.ref.tenant, id).catch((error: unknown) => (error instanceof InvalidInput ? null : Promise.reject(error))),
    );
  });
}

export function eventsCheck(read: ReadSide): ErasureCheck {
  return searchAnswers('events', (t) => [() => readSubjectEvents(read.eventStore, read.keyStore, t.ref)]);
}
