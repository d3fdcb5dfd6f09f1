// A JSON form of the folded state, for handlers that cache it or store it as
// a snapshot next to its revision (so a command reads only newer events).
// Reading one back validates it; a snapshot of another version is refused
// and the caller folds from the stream instead.
import { z } from 'zod';
import { sharedClearShape } from '../entry/clear-shape.js';
import { memoryKeySchema } from '../entry/key.js';
import { normaliseScopes, scopesSchema, slotOf } from '../entry/scopes.js';
import { sourceRefSchema, sourceSchema, sourceTypeSchema, trustLevelSchema } from '../entry/source.js';
import { memoryKindSchema, polaritySchema, sensitivitySchema } from '../entry/vocabulary.js';
import { aliasTupleSchema } from '../events/alias.js';
import { DEMOTION_REASONS } from '../lifecycle/plan.js';
import { countSchema, sequenceSchema } from '../events/fields.js';
import { keyedHashSchema } from '../events/sealed.js';
import { PersistentMap } from '../persistent-map/persistent-map.js';
import { conflictIdSchema, memoryIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { valueTypeSchema } from '../values/value.js';
import { memoryUsageSchema } from '../usage/usage.js';
import { ENTRY_STATUSES, PROPOSAL_STATUSES, type ConflictState, type EntryState, type ProposalState, type SubjectState } from './state.js';

export const STATE_SNAPSHOT_VERSION = 2;

const entrySnapshot = z.strictObject({
  memoryId: memoryIdSchema,
  sequence: sequenceSchema,
  kind: memoryKindSchema,
  key: memoryKeySchema,
  scopes: scopesSchema.transform(normaliseScopes),
  valueType: valueTypeSchema,
  valueHash: keyedHashSchema,
  contentHash: keyedHashSchema.optional(),
  polarity: polaritySchema,
  source: sourceSchema,
  trustAtRecord: trustLevelSchema,
  confidence: z.number().min(0).max(1).optional(),
  sensitivity: sensitivitySchema,
  ...sharedClearShape,
  /** Always present in state, as in MemoryRecorded. */
  validFrom: instantSchema,
  status: z.enum(ENTRY_STATUSES),
  supersededBy: memoryIdSchema.optional(),
  demotion: z
    .strictObject({ reason: z.enum(DEMOTION_REASONS), rule: z.string(), policyVersion: countSchema, demotedAt: instantSchema })
    .optional(),
  corroborations: countSchema,
  conflictIds: z.array(conflictIdSchema),
  usage: memoryUsageSchema.optional(),
});

const conflictSnapshot = z.strictObject({
  conflictId: conflictIdSchema,
  key: memoryKeySchema,
  scopes: scopesSchema.transform(normaliseScopes),
  memoryIds: z.array(memoryIdSchema),
  status: z.enum(['open', 'resolved', 'moot']),
  winner: memoryIdSchema.optional(),
});

const proposalSnapshot = z.strictObject({
  memoryId: memoryIdSchema,
  kind: memoryKindSchema,
  key: memoryKeySchema,
  proposedAt: instantSchema,
  expiresAt: instantSchema,
  status: z.enum(PROPOSAL_STATUSES),
  acceptedAs: memoryIdSchema.optional(),
});

export const stateSnapshotSchema = z.strictObject({
  version: z.literal(STATE_SNAPSHOT_VERSION),
  highWaterMark: countSchema,
  inputEpoch: countSchema,
  /** In sequence order. */
  entries: z.array(entrySnapshot),
  conflicts: z.array(conflictSnapshot),
  openConflictIds: z.array(conflictIdSchema),
  trustOverrides: z.array(z.tuple([sourceRefSchema, trustLevelSchema])),
  taintPolicy: z.strictObject({ version: countSchema, refPatterns: z.array(z.string()), sourceTypes: z.array(sourceTypeSchema) }),
  alias: aliasTupleSchema.nullable(),
  forgotten: z.boolean(),
  /** In memory id order. */
  proposals: z.array(proposalSnapshot),
});
export type StateSnapshot = z.input<typeof stateSnapshotSchema>;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function toStateSnapshot(state: SubjectState): StateSnapshot {
  return {
    version: STATE_SNAPSHOT_VERSION,
    highWaterMark: state.highWaterMark,
    inputEpoch: state.inputEpoch,
    entries: [...state.entries.values()]
      .sort((a, b) => a.sequence - b.sequence)
      .map(({ slot: _slot, purposes, ...rest }) => ({
        ...rest,
        conflictIds: [...rest.conflictIds],
        ...(purposes ? { purposes: [...purposes] } : {}),
      })),
    conflicts: [...state.conflicts.values()]
      .sort((a, b) => byText(a.conflictId, b.conflictId))
      .map((c) => ({ ...c, memoryIds: [...c.memoryIds] })),
    openConflictIds: [...state.openConflictIds],
    trustOverrides: [...state.trustOverrides.entries()].sort(([a], [b]) => byText(a, b)),
    taintPolicy: {
      version: state.taintPolicy.version,
      refPatterns: [...state.taintPolicy.refPatterns],
      sourceTypes: [...state.taintPolicy.sourceTypes],
    },
    alias: state.alias,
    forgotten: state.forgotten,
    proposals: [...state.proposals.values()].sort((a, b) => byText(a.memoryId, b.memoryId)),
  };
}

/** Rebuilds the state of a snapshot; returns undefined for a snapshot that is not valid or of another version. */
export function fromStateSnapshot(input: unknown): SubjectState | undefined {
  const parsed = stateSnapshotSchema.safeParse(input);
  if (!parsed.success) return undefined;
  const snapshot = parsed.data;
  let entries = PersistentMap.empty<EntryState>();
  let activeBySlot = PersistentMap.empty<readonly string[]>();
  let expiring = PersistentMap.empty<string>();
  for (const raw of [...snapshot.entries].sort((a, b) => a.sequence - b.sequence)) {
    const entry = withoutUndefined({ ...raw, slot: slotOf(raw.key, raw.scopes) }) as EntryState;
    entries = entries.set(entry.memoryId, entry);
    if (entry.status !== 'active') continue;
    activeBySlot = activeBySlot.set(entry.slot, [...(activeBySlot.get(entry.slot) ?? []), entry.memoryId]);
    if (entry.expiresAt !== undefined) expiring = expiring.set(entry.memoryId, entry.expiresAt);
  }
  return {
    highWaterMark: snapshot.highWaterMark,
    inputEpoch: snapshot.inputEpoch,
    entries,
    activeBySlot,
    expiring,
    conflicts: PersistentMap.from(snapshot.conflicts.map((c) => [c.conflictId, withoutUndefined(c) as ConflictState] as const)),
    openConflictIds: [...snapshot.openConflictIds].sort(byText),
    trustOverrides: PersistentMap.from(snapshot.trustOverrides),
    taintPolicy: snapshot.taintPolicy,
    alias: snapshot.alias,
    forgotten: snapshot.forgotten,
    proposals: PersistentMap.from(snapshot.proposals.map((p) => [p.memoryId, withoutUndefined(p) as ProposalState] as const)),
  };
}

function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}
