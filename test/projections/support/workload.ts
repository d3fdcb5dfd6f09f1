// A generated, realistic workload for the projection tests and the rebuild
// benchmark: many subjects driven through the real decider (records that
// come out NEW, DUPLICATE, SUPERSEDES or CONFLICTS, explicit supersessions,
// retractions, conflict resolutions, trust and taint changes, expiries,
// erasures of memories and subjects), plus consolidations written as
// artifact streams (parents two or more levels deep, some built on inputs
// that changed meanwhile) with alias switches. Seeded, so a run repeats.
//
// Events skip the zod round trip on the way in (the decider's output already
// has the schema's shape, and the projection decodes every event it reads),
// which keeps generating a million events cheap.
import { createHash, randomUUID } from 'node:crypto';
import type { SealedEntry } from '../../../src/domain/entry/sealed-entry.js';
import { SOURCE_TYPES, type SourceType, type TrustLevel } from '../../../src/domain/entry/source.js';
import type { ArtifactEvent } from '../../../src/domain/events/artifact-events.js';
import { CURRENT_SCHEMA_VERSIONS, type DomainEvent } from '../../../src/domain/events/catalog.js';
import type { Manifest } from '../../../src/domain/events/manifest.js';
import type { Sealed } from '../../../src/domain/events/sealed.js';
import { artifactStreamName, subjectStreamName } from '../../../src/domain/events/stream-names.js';
import { inputRoot } from '../../../src/domain/canonical/input-root.js';
import type { SubjectCommand } from '../../../src/domain/subject/commands.js';
import { decide } from '../../../src/domain/subject/decide.js';
import { evolve } from '../../../src/domain/subject/evolve.js';
import { activeEntries, initialState, type SubjectState } from '../../../src/domain/subject/state.js';
import { legacyRecordOf } from '../../support/legacy-record.js';
import {
  comparePositions,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
} from '../../../src/infrastructure/event-store/port.js';

export interface Append {
  readonly stream: string;
  readonly expectedRevision: ExpectedRevision;
  readonly events: NewEvent[];
}

export interface WorkloadOptions {
  readonly subjects: number;
  readonly seed: number;
  readonly tenant?: string;
  /** Steps in 1000 that consolidate (artifact streams and alias switches); default 100, 0 for none. */
  readonly consolidationsPerMille?: number;
  /**
   * Steps in 1000 that append a poison event to the subject's stream, as a
   * buggy or hostile writer could (default 0): a MemoryRecorded that does not
   * decode, or one that decodes but that PostgreSQL refuses. The projection
   * must pass over it (a fault) and apply everything else; the fold here
   * leaves it out, as the projection does.
   */
  readonly poisonPerMille?: number;
}

/** What a poison event of the workload is made to fail on. */
export type PoisonKind = 'undecodable' | 'refused_by_database';

const DAY = 86_400_000;
const KEYS = ['notification.preference', 'contact.phone', 'delivery.delay', 'language', 'shipping.city', 'refund.policy'];
const VALUES = ['sms', 'email', '+86-138-0000-0001', '+86-139-0000-0002', '72h', 'zh', 'en', 'Shanghai', 'Hangzhou'];
const REFS = ['msg://t-1/1', 'msg://t-1/2', 'tool://crm', 'review://r-1', 'msg://t-2/9'];

interface SubjectRun {
  readonly index: number;
  readonly stream: string;
  state: SubjectState;
  revision: number;
  now: number;
  next: number;
  artifacts: number;
  /** A consolidation snapshot written a few steps later (its inputs may have changed by then). */
  pending: { manifest: Manifest; due: number } | undefined;
}

export class Workload {
  readonly tenant: string;
  readonly #subjects: SubjectRun[];
  readonly #consolidations: number;
  readonly #poison: number;
  #seed: number;
  /** Ids of the poison events appended so far, with what each is made to fail on. */
  readonly poisoned = new Map<string, PoisonKind>();
  #bytes = 0;
  /** Events generated so far. */
  count = 0;

  constructor(options: WorkloadOptions) {
    this.tenant = options.tenant ?? 'acme';
    this.#seed = options.seed >>> 0;
    this.#consolidations = options.consolidationsPerMille ?? 100;
    this.#poison = options.poisonPerMille ?? 0;
    this.#subjects = Array.from({ length: options.subjects }, (_, index) => ({
      index,
      stream: subjectStreamName(this.tenant, `s-${index}`),
      state: initialState(),
      revision: -1,
      now: Date.parse('2026-01-01T00:00:00Z') + index * 1000,
      next: 0,
      artifacts: 0,
      pending: undefined,
    }));
  }

  /** The folded state of every subject after everything generated so far, by subject id. */
  states(): Map<string, SubjectState> {
    return new Map(this.#subjects.map((run) => [`s-${run.index}`, run.state]));
  }

  /** At least `events` more events, as appends (one per stream, in order). */
  chunk(events: number): Append[] {
    const byStream = new Map<string, Append>();
    const target = this.count + events;
    while (this.count < target) {
      const run = this.#subjects[this.#int(this.#subjects.length)]!;
      this.#step(run, byStream);
    }
    // Artifact streams first: a switch in a subject stream then follows its artifact in the log.
    return [...byStream.values()].sort((a, b) => Number(a.stream.startsWith('memory-')) - Number(b.stream.startsWith('memory-')));
  }

  #step(run: SubjectRun, out: Map<string, Append>): void {
    run.now += (1 + this.#int(120)) * 60_000;
    run.next += 1;
    if (run.pending && run.next >= run.pending.due) {
      this.#consolidate(run, run.pending.manifest, out);
      run.pending = undefined;
      return;
    }
    if (!run.state.forgotten && this.#int(10_000) < this.#poison * 10) {
      this.#poisonEvent(run, out);
      return;
    }
    const action = this.#command(run);
    if (action === 'consolidate') {
      const manifest = this.#manifest(run);
      if (this.#int(3) === 0) run.pending = { manifest, due: run.next + 1 + this.#int(6) };
      else this.#consolidate(run, manifest, out);
    } else if (action) {
      this.#apply(run, action, out);
    }
  }

  #command(run: SubjectRun): SubjectCommand | 'consolidate' | undefined {
    const now = new Date(run.now).toISOString();
    const state = run.state;
    const id = () => `m-${run.index}-${run.next}`;
    if (state.forgotten) return undefined;
    if (this.#int(1000) < this.#consolidations) return run.pending ? undefined : 'consolidate';
    const roll = this.#int(900);
    if (roll < 520) return { type: 'RecordMemory', memoryId: id(), conflictId: `c-${run.index}-${run.next}`, entry: this.#entry(run), now };
    const active = activeEntries(state);
    const pick = <T>(list: readonly T[]): T | undefined => (list.length === 0 ? undefined : list[this.#int(list.length)]);
    if (roll < 600) {
      const target = pick(active);
      if (!target) return undefined;
      const entry = {
        ...this.#entry(run, target.key),
        scopes: target.scopes,
        validFrom: new Date(Math.max(Date.parse(target.validFrom), run.now - 3 * DAY)).toISOString(),
      };
      delete (entry as { validTo?: string }).validTo;
      return {
        type: 'SupersedeMemory',
        memoryId: target.memoryId,
        newMemoryId: id(),
        conflictId: `c-${run.index}-${run.next}`,
        entry,
        now,
      };
    }
    if (roll < 680) {
      const target = pick([...state.entries.values()].filter((e) => e.status !== 'retracted' && e.status !== 'forgotten'));
      return target ? { type: 'RetractMemory', memoryId: target.memoryId, reason: 'withdrawn by the source', now } : undefined;
    }
    if (roll < 760) {
      const conflict = pick(state.openConflictIds);
      const members = conflict ? state.conflicts.get(conflict)!.memoryIds.filter((m) => state.entries.get(m)?.status === 'active') : [];
      const winner = pick(members);
      return conflict && winner ? { type: 'ResolveConflict', conflictId: conflict, winner, reason: 'reviewed', now } : undefined;
    }
    if (roll < 840) return { type: 'ExpireMemories', now };
    if (roll < 870) {
      const target = pick([...state.entries.values()].filter((e) => e.status !== 'forgotten'));
      return target
        ? {
            type: 'ForgetMemory',
            memoryId: target.memoryId,
            receiptId: `r-${run.index}-${run.next}`,
            destroyedKeyIds: [`mk-${target.memoryId}`],
            invalidatedArtifactIds: [],
            now,
          }
        : undefined;
    }
    if (roll < 890) {
      const levels: TrustLevel[] = ['model_inference', 'untrusted', 'human_review', 'derived_summary'];
      return { type: 'ChangeTrust', sourceRef: pick(REFS)!, level: pick(levels)!, now };
    }
    if (roll < 897)
      return {
        type: 'EscalateTaintPolicy',
        refPatterns: [`${pick(REFS)!.slice(0, 8)}*`],
        sourceTypes: [],
        reason: 'prompt injection seen',
        now,
      };
    if (roll < 898)
      return {
        type: 'ForgetSubject',
        receiptId: `r-${run.index}-${run.next}`,
        destroyedKeyIds: [`sk-${run.index}`],
        invalidatedArtifactIds: [],
        now,
      };
    return undefined;
  }

  #apply(run: SubjectRun, command: SubjectCommand, out: Map<string, Append>): boolean {
    const result = decide(run.state, command);
    if (!result.ok || result.events.length === 0) return false;
    for (const event of result.events) run.state = evolve(run.state, event);
    this.#emit(
      out,
      run.stream,
      () => {
        const expected: ExpectedRevision = run.revision < 0 ? 'no_stream' : run.revision;
        return expected;
      },
      result.events,
    );
    run.revision += result.events.length;
    return true;
  }

  #manifest(run: SubjectRun): Manifest {
    const state = run.state;
    run.artifacts += 1;
    const inputs = activeEntries(state)
      .slice(-12)
      .map((e) => ({
        memoryId: e.memoryId,
        sequence: e.sequence,
        valueHash: e.valueHash,
        ...(e.contentHash !== undefined ? { contentHash: e.contentHash } : {}),
      }));
    return {
      artifactId: `a-${this.tenant}-${run.index}-${run.artifacts}`,
      tenant: this.tenant,
      subject: `s-${run.index}`,
      newCoversThrough: state.highWaterMark,
      inputEpoch: state.inputEpoch,
      expectedAlias: state.alias,
      inputs,
      inputRoot: inputRoot(inputs),
      conflictIds: [...state.openConflictIds],
      parentArtifactId: state.alias?.artifactId ?? null,
      selectorVersion: 'sel-1',
      promptVersion: 'p-1',
      modelSnapshot: 'deterministic-1',
    };
  }

  /** The artifact stream (generated, gate), then the switch — or, when the fence refuses, ConsolidationRejected. */
  #consolidate(run: SubjectRun, manifest: Manifest, out: Map<string, Append>): void {
    const now = new Date(run.now).toISOString();
    const events: ArtifactEvent[] = [
      {
        type: 'ArtifactGenerated',
        data: {
          artifactId: manifest.artifactId,
          manifest,
          output: this.#sealed(),
          outputHash: hex(`${manifest.artifactId}-out`),
          record: legacyRecordOf(manifest),
          generatedAt: now,
        },
      },
      { type: 'GatePassed', data: { artifactId: manifest.artifactId, mustPreserveCount: manifest.inputs.length, checkedAt: now } },
    ];
    const switched = this.#apply(run, { type: 'SwitchSummaryAlias', manifest, now }, out);
    if (!switched) {
      const reason = decide(run.state, { type: 'SwitchSummaryAlias', manifest, now });
      const code = reason.ok ? 'alias_changed' : (reason.rejection.code as 'alias_changed');
      events.push({
        type: 'ConsolidationRejected',
        data: { artifactId: manifest.artifactId, reason: code, message: 'the fence refused the switch', rejectedAt: now },
      });
    }
    const stream = artifactStreamName(manifest.artifactId);
    this.#emit(out, stream, () => 'no_stream', events);
  }

  /** A MemoryRecorded with a year-0 validFrom (no longer decodes) or a sequence past int4 (decodes; PostgreSQL refuses it). */
  #poisonEvent(run: SubjectRun, out: Map<string, Append>): void {
    const kind: PoisonKind = this.#int(2) === 0 ? 'undecodable' : 'refused_by_database';
    const data = {
      memoryId: `m-${run.index}-${run.next}-poison`,
      sequence: kind === 'undecodable' ? run.state.highWaterMark + 1 : 2 ** 31,
      kind: 'profile',
      key: 'poison.pill',
      valueType: 'text',
      valueHash: hex(`poison-${run.index}-${run.next}`),
      value: this.#sealed(),
      polarity: 'affirmed',
      source: { type: 'user_assertion', refs: [] },
      trust: 'user_assertion',
      sensitivity: 'normal',
      scopes: {},
      validFrom: kind === 'undecodable' ? '0000-01-01T00:00:00.000Z' : new Date(run.now).toISOString(),
    };
    const expected: ExpectedRevision = run.revision < 0 ? 'no_stream' : run.revision;
    this.#emit(out, run.stream, () => expected, [{ type: 'MemoryRecorded', data } as unknown as DomainEvent]);
    this.poisoned.set(out.get(run.stream)!.events.at(-1)!.id, kind);
    run.revision += 1;
  }

  #emit(out: Map<string, Append>, stream: string, expected: () => ExpectedRevision, events: readonly DomainEvent[]): void {
    let append = out.get(stream);
    if (!append) {
      append = { stream, expectedRevision: expected(), events: [] };
      out.set(stream, append);
    }
    for (const event of events) {
      append.events.push({
        id: randomUUID(),
        type: event.type,
        data: event.data,
        metadata: { schemaVersion: CURRENT_SCHEMA_VERSIONS[event.type] },
      });
      this.count += 1;
    }
  }

  #entry(run: SubjectRun, key?: string): SealedEntry {
    const k = key ?? KEYS[this.#int(KEYS.length)]!;
    const value = VALUES[this.#int(VALUES.length)]!;
    const negated = this.#int(10) === 0;
    const source: SourceType = SOURCE_TYPES[this.#int(SOURCE_TYPES.length)]!;
    const validFrom = new Date(run.now - this.#int(30) * DAY).toISOString();
    const entry: SealedEntry = {
      kind: 'profile',
      key: k,
      valueType: 'text',
      valueHash: hex(`${k}=${value}`),
      value: this.#sealed(),
      polarity: negated ? 'negated' : 'affirmed',
      source: { type: source, refs: [REFS[this.#int(REFS.length)]!] },
      sensitivity: 'personal',
      scopes: this.#int(4) === 0 ? { project: 'p-1' } : {},
      validFrom,
    };
    const extra: Partial<{ -readonly [K in keyof SealedEntry]: SealedEntry[K] }> = {};
    if (this.#int(3) === 0) {
      extra.content = this.#sealed();
      extra.contentHash = hex(`${k}=${value}:content`);
    }
    if (this.#int(6) === 0) extra.expiresAt = new Date(run.now + (1 + this.#int(48)) * 3_600_000).toISOString();
    if (this.#int(12) === 0) extra.validTo = new Date(Date.parse(validFrom) + (1 + this.#int(60)) * DAY).toISOString();
    if (this.#int(4) === 0) extra.confidence = this.#int(100) / 100;
    return { ...entry, ...extra };
  }

  #sealed(): Sealed {
    this.#bytes += 1;
    const iv = Buffer.alloc(12);
    iv.writeUInt32BE(this.#bytes, 8);
    const ct = createHash('sha256').update(String(this.#bytes)).digest();
    return { alg: 'A256GCM', keyId: `key-${this.tenant}`, iv: iv.toString('base64'), ct: ct.toString('base64') };
  }

  /** mulberry32 */
  #int(n: number): number {
    this.#seed = (this.#seed + 0x6d2b79f5) >>> 0;
    let t = this.#seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  }
}

function hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Appends a chunk, `concurrency` streams at a time (each stream's events in
 * one atomic append). Returns the last position written: the head of the log
 * may not show it yet while older transactions run (see log-order.ts), so
 * tests catch up to it rather than to the head.
 */
export async function appendChunk(store: EventStore, appends: readonly Append[], concurrency = 4): Promise<Position | undefined> {
  let next = 0;
  let last: Position | undefined;
  const worker = async () => {
    while (next < appends.length) {
      const append = appends[next++]!;
      const { position } = await store.append(append.stream, append.events, { expectedRevision: append.expectedRevision });
      if (!last || comparePositions(position, last) > 0) last = position;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, appends.length) }, worker));
  return last;
}
