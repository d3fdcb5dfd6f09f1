// subject_clock in memory for a batch: H, inputEpoch, and the revision of
// the last subject event applied — the guard that makes applying an event a
// second time change nothing.
import { advancesEpoch, type SubjectEvent } from '../../../domain/events/subject-events.js';
import { subjectKey, type EventPoint } from './event-point.js';

export interface SubjectClock {
  readonly tenant: string;
  readonly subject: string;
  highWaterMark: number;
  inputEpoch: number;
  /** -1 before any event. */
  streamRevision: number;
  forgotten: boolean;
  updatedTx: string;
  updatedCommit: string;
  updatedPrepare: string;
}

export class SubjectClocks {
  readonly #clocks = new Map<string, SubjectClock>();
  readonly #changed = new Set<SubjectClock>();

  load(clocks: readonly SubjectClock[]): void {
    for (const clock of clocks) this.#clocks.set(subjectKey(clock.tenant, clock.subject), clock);
  }

  /** True when the event is new to the subject (its revision is past the last applied). */
  admit(tenant: string, subject: string, at: EventPoint): boolean {
    const clock = this.#clocks.get(subjectKey(tenant, subject));
    return clock === undefined || at.revision > clock.streamRevision;
  }

  advance(tenant: string, subject: string, event: SubjectEvent, at: EventPoint): void {
    const key = subjectKey(tenant, subject);
    let clock = this.#clocks.get(key);
    if (!clock) {
      clock = {
        tenant,
        subject,
        highWaterMark: 0,
        inputEpoch: 0,
        streamRevision: -1,
        forgotten: false,
        updatedTx: at.tx,
        updatedCommit: at.commit,
        updatedPrepare: at.prepare,
      };
      this.#clocks.set(key, clock);
    }
    if (event.type === 'MemoryRecorded') clock.highWaterMark = Math.max(clock.highWaterMark, event.data.sequence);
    if (advancesEpoch(event)) clock.inputEpoch += 1;
    if (event.type === 'SubjectForgotten') clock.forgotten = true;
    clock.streamRevision = at.revision;
    clock.updatedTx = at.tx;
    clock.updatedCommit = at.commit;
    clock.updatedPrepare = at.prepare;
    this.#changed.add(clock);
  }

  changed(): SubjectClock[] {
    return [...this.#changed];
  }
}
