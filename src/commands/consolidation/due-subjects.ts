// The scheduler's view of which subjects to look at: every subject stream of
// a tenant that has events, discovered from the global log (so it needs no
// projection), and of those the ones due by the domain's rule.
import { consolidationDue, type DueReason } from '../../domain/consolidation/schedule.js';
import { parseSubjectStreamName, SUBJECT_STREAM_PREFIX, tenantStreamPrefix } from '../../domain/events/stream-names.js';
import type { EventStore, Position } from '../../infrastructure/event-store/port.js';
import type { SubjectRepository } from '../../reads/streams/subject-repository.js';

export interface DueSubject {
  readonly tenant: string;
  readonly subject: string;
  readonly reason: DueReason;
  /** The subject stream's revision when judged. */
  readonly revision: number;
}

const PAGE = 2000;

export class DueSubjects {
  private position: Position | undefined;
  /** Subjects to judge at the next call: those with new events, and those that were due last time. */
  private readonly pending = new Map<string, { tenant: string; subject: string }>();

  constructor(
    private readonly store: EventStore,
    private readonly subjects: SubjectRepository,
    /** Only this tenant's subjects; all tenants when absent. */
    private readonly tenant?: string,
  ) {}

  /** Reads the log since the last call, then judges the subjects that changed or were due. */
  async find(threshold: number): Promise<DueSubject[]> {
    await this.discover();
    const due: DueSubject[] = [];
    for (const [stream, ref] of this.pending) {
      const loaded = await this.subjects.load(stream);
      const reason = consolidationDue(loaded.state, threshold);
      if (reason) due.push({ ...ref, reason, revision: loaded.revision });
      else this.pending.delete(stream);
    }
    return due;
  }

  /**
   * From where the last read examined the log, not from its last subject
   * event: the recall records appended since (one per recall) are passed
   * over once, not again at every poll.
   */
  private async discover(): Promise<void> {
    const prefix = this.tenant !== undefined ? tenantStreamPrefix(this.tenant) : SUBJECT_STREAM_PREFIX;
    for (;;) {
      const page = await this.store.readPage({
        ...(this.position ? { after: this.position } : {}),
        maxCount: PAGE,
        filter: { streamPrefixes: [prefix] },
      });
      for (const event of page.events) {
        const ref = parseSubjectStreamName(event.stream);
        if (ref) this.pending.set(event.stream, ref);
      }
      if (page.examinedTo) this.position = page.examinedTo;
      if (page.events.length < PAGE) return;
    }
  }
}
