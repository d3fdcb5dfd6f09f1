// The memory versions a batch touches, in memory: the current version of
// each memory (loaded from the table, or written earlier in the batch) and
// what the batch must write. An event that changes a memory closes its
// current version at the event's commit time and opens the next one; nothing
// else about a written version changes, except erasure (see tables.ts).
import { nullWhereAbsent, RECORDED_OPTIONAL_FIELDS } from '../../../domain/entry/fields.js';
import type { SubjectEventData } from '../../../domain/events/subject-events.js';
import { statusMayChange, SUBJECT_FORGOTTEN_STATUS } from '../../../domain/subject/status-change.js';
import type { MemoryStatus } from '../tables.js';
import { memoryKey, subjectKey, type EventPoint } from './event-point.js';
import type { MemoryVersion } from './memory-version.js';

export interface ClosedVersion {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
  readonly version: number;
  readonly txTo: string;
  readonly txToCommit: string;
  readonly txToPrepare: string;
  readonly closedBy: string;
}

export interface MemoryRef {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
}

export class MemoryLedger {
  readonly #current = new Map<string, MemoryVersion>();
  /** Versions that are rows already (loaded): closing them is an UPDATE. */
  readonly #stored = new Set<MemoryVersion>();
  /** Memories with rows stored before this batch. */
  readonly #hasStoredRows = new Set<string>();
  readonly #written = new Map<string, MemoryVersion[]>();
  readonly #bySubject = new Map<string, Set<string>>();

  readonly inserts: MemoryVersion[] = [];
  readonly closes: ClosedVersion[] = [];
  /** Memories whose stored rows lose their ciphertext and keyed hashes. */
  readonly erasedMemories: MemoryRef[] = [];
  /** Subjects whose stored rows all lose their ciphertext and keyed hashes. */
  readonly erasedSubjects: { tenant: string; subject: string }[] = [];

  /** Current versions read from the table. */
  load(versions: readonly MemoryVersion[]): void {
    for (const v of versions) {
      const key = memoryKey(v.tenant, v.subject, v.memoryId);
      if (this.#current.has(key)) continue;
      this.#current.set(key, v);
      this.#stored.add(v);
      this.#hasStoredRows.add(key);
      this.#index(v.tenant, v.subject, key);
    }
  }

  current(tenant: string, subject: string, memoryId: string): MemoryVersion | undefined {
    return this.#current.get(memoryKey(tenant, subject, memoryId));
  }

  /** MemoryRecorded: version 1. A memory id already known keeps its rows (as the fold does). */
  record(at: EventPoint, tenant: string, subject: string, data: SubjectEventData<'MemoryRecorded'>): void {
    const key = memoryKey(tenant, subject, data.memoryId);
    if (this.#current.has(key)) return;
    const v: MemoryVersion = {
      tenant,
      subject,
      memoryId: data.memoryId,
      version: 1,
      sequence: data.sequence,
      status: 'active',
      kind: data.kind,
      key: data.key,
      scopes: { ...data.scopes },
      valueType: data.valueType,
      valueHash: data.valueHash,
      value: data.value,
      polarity: data.polarity,
      ...nullWhereAbsent(data, ['content', 'contentHash', 'anticipatedQueries']),
      sourceType: data.source.type,
      sourceRefs: data.source.refs,
      trust: data.trust,
      sensitivity: data.sensitivity,
      ...nullWhereAbsent(data, RECORDED_OPTIONAL_FIELDS),
      refines: data.refines ?? null,
      validFrom: data.validFrom,
      supersededBy: null,
      promotedFrom: data.promotedFrom ?? null,
      ...opened(at),
    };
    this.#write(key, v);
    this.#index(tenant, subject, key);
  }

  /**
   * The memory leaves `active` (or changes its inactive status, e.g. a
   * superseded entry retracted later). Forgotten is final. Returns the new
   * version, or undefined when the memory is unknown or forgotten.
   */
  leave(
    at: EventPoint,
    ref: MemoryRef,
    status: Exclude<MemoryStatus, 'active'>,
    patch: { validTo?: string; supersededBy?: string } = {},
  ): MemoryVersion | undefined {
    const key = memoryKey(ref.tenant, ref.subject, ref.memoryId);
    const current = this.#current.get(key);
    if (!current || !statusMayChange(current.status)) return undefined;
    this.#close(current, at);
    const next: MemoryVersion = {
      ...current,
      version: current.version + 1,
      status,
      validTo: patch.validTo ?? current.validTo,
      supersededBy: patch.supersededBy ?? current.supersededBy,
      ...opened(at),
    };
    this.#write(key, next);
    if (status === 'forgotten') this.#erase(key);
    return next;
  }

  /** SubjectForgotten: every memory of the subject not yet forgotten gets a forgotten version; all lose their ciphertext. */
  forgetSubject(at: EventPoint, tenant: string, subject: string): MemoryVersion[] {
    const changed: MemoryVersion[] = [];
    for (const key of this.#bySubject.get(subjectKey(tenant, subject)) ?? []) {
      const current = this.#current.get(key)!;
      const next = this.leave(at, current, SUBJECT_FORGOTTEN_STATUS);
      if (next) changed.push(next);
    }
    this.erasedSubjects.push({ tenant, subject });
    return changed;
  }

  #close(v: MemoryVersion, at: EventPoint): void {
    v.txTo = at.tx;
    v.txToCommit = at.commit;
    v.txToPrepare = at.prepare;
    v.closedBy = at.eventId;
    if (this.#stored.has(v)) {
      this.closes.push({
        tenant: v.tenant,
        subject: v.subject,
        memoryId: v.memoryId,
        version: v.version,
        txTo: at.tx,
        txToCommit: at.commit,
        txToPrepare: at.prepare,
        closedBy: at.eventId,
      });
    }
  }

  #write(key: string, v: MemoryVersion): void {
    this.#current.set(key, v);
    this.inserts.push(v);
    const written = this.#written.get(key);
    if (written) written.push(v);
    else this.#written.set(key, [v]);
  }

  /** Erasure drops the ciphertext from every version of the memory, written in this batch or stored before. */
  #erase(key: string): void {
    for (const v of this.#written.get(key) ?? []) scrub(v);
    const current = this.#current.get(key)!;
    if (this.#hasStoredRows.has(key))
      this.erasedMemories.push({ tenant: current.tenant, subject: current.subject, memoryId: current.memoryId });
  }

  #index(tenant: string, subject: string, key: string): void {
    const sk = subjectKey(tenant, subject);
    const keys = this.#bySubject.get(sk);
    if (keys) keys.add(key);
    else this.#bySubject.set(sk, new Set([key]));
  }
}

function opened(at: EventPoint) {
  return {
    txFrom: at.tx,
    txFromCommit: at.commit,
    txFromPrepare: at.prepare,
    txTo: null,
    txToCommit: null,
    txToPrepare: null,
    closedBy: null,
    openedBy: at.eventId,
    openedByType: at.type,
  };
}

function scrub(v: MemoryVersion): void {
  v.value = null;
  v.content = null;
  v.valueHash = null;
  v.contentHash = null;
  v.anticipatedQueries = null;
}
