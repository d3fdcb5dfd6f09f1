// The memory versions of one subject, folded from its event stream alone:
// the same rules as the memory_versions projection (one version per event
// that changes a memory; forgetting is final; a memory id recorded again
// keeps its first record), kept pure so replay needs no projection table.
import { unhandled } from '../../domain/decider/decider.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { SubjectEvent } from '../../domain/events/subject-events.js';
import { statusChangeOf, statusMayChange, SUBJECT_FORGOTTEN_STATUS, type StatusChange } from '../../domain/subject/status-change.js';
import type { MemoryStatus } from '../../projections/memory/tables.js';
import type { BeliefFields } from '../belief.js';

export interface TimedEvent {
  readonly id: string;
  /** The store's commit time, ISO at millisecond precision. */
  readonly recordedAt: string;
  readonly event: SubjectEvent;
}

export interface FoldedVersion extends Omit<BeliefFields, 'status'> {
  readonly status: MemoryStatus;
  readonly value: Sealed;
  readonly content?: Sealed;
}

/** The current version of every memory after `events` (in stream order). */
export function foldVersions(events: Iterable<TimedEvent>): Map<string, FoldedVersion> {
  const current = new Map<string, FoldedVersion>();
  const leave = (at: TimedEvent, { memoryId, status, validTo, supersededBy }: StatusChange) => {
    const was = current.get(memoryId);
    if (!was || !statusMayChange(was.status)) return;
    current.set(memoryId, {
      ...was,
      version: was.version + 1,
      status,
      validTo: validTo ?? was.validTo,
      supersededBy: supersededBy ?? was.supersededBy,
      recordedAt: at.recordedAt,
      recordedBy: { eventId: at.id, type: at.event.type },
    });
  };
  for (const at of events) {
    const { event } = at;
    switch (event.type) {
      case 'MemoryRecorded': {
        const d = event.data;
        if (current.has(d.memoryId)) break;
        current.set(d.memoryId, {
          memoryId: d.memoryId,
          version: 1,
          sequence: d.sequence,
          status: 'active',
          kind: d.kind,
          key: d.key,
          scopes: { ...d.scopes },
          valueType: d.valueType,
          polarity: d.polarity,
          value: d.value,
          ...(d.content ? { content: d.content } : {}),
          source: { type: d.source.type, refs: d.source.refs },
          trust: d.trust,
          confidence: d.confidence ?? null,
          sensitivity: d.sensitivity,
          consentRef: d.consentRef ?? null,
          purposes: d.purposes ?? null,
          refines: d.refines ?? null,
          validFrom: d.validFrom,
          validTo: d.validTo ?? null,
          expiresAt: d.expiresAt ?? null,
          supersededBy: null,
          recordedAt: at.recordedAt,
          recordedBy: { eventId: at.id, type: event.type },
        });
        break;
      }
      case 'MemorySuperseded':
      case 'MemoryRetracted':
      case 'MemoryExpired':
      case 'MemoryArchived':
      case 'MemoryForgotten':
        leave(at, statusChangeOf(event));
        break;
      case 'SubjectForgotten':
        for (const memoryId of [...current.keys()]) leave(at, { memoryId, status: SUBJECT_FORGOTTEN_STATUS });
        break;
      // They change no memory's status.
      case 'MemoryCorroborated':
      case 'MemoryDemoted': // a demoted memory is still believed (active), only not served: no new version
      case 'MemoryRestored':
      case 'ConflictDetected':
      case 'ConflictResolved':
      case 'TrustChanged':
      case 'TaintPolicyEscalated':
      case 'SummaryAliasSwitched':
      case 'DeletionReceiptIssued':
      case 'MemoryProposed': // a candidate is no memory version until accepted (that is a MemoryRecorded)
      case 'ProposalRejected':
      case 'ProposalExpired':
      case 'MemoryFeedbackGiven': // usage, not a version (memory_usage)
      case 'MemoryPromoted': // the source's version stays; the copy is the target's
        break;
      default:
        unhandled(event);
    }
  }
  return current;
}

/** The versions held true about business time `validTime` (same rule as the projection's believedAt). */
export function believedVersions(versions: Iterable<FoldedVersion>, validTime: string): FoldedVersion[] {
  const v = Date.parse(validTime);
  return [...versions].filter(
    (x) =>
      (x.status === 'active' || x.status === 'superseded') &&
      Date.parse(x.validFrom) <= v &&
      (x.validTo === null || Date.parse(x.validTo) > v),
  );
}
