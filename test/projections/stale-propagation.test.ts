// STALE sets and lineage from hand-built artifact streams (consolidation is
// not written yet; the events are the real schemas, validated on the way in)
// and real alias switches through the command handler: a summary built on a
// parent summary built on raw entries, two levels deep. Retracting a raw
// entry under the first makes all three STALE, each through the one below;
// forgetting an entry erases the outputs of what derives from it. The rows
// come out the same whether caught up step by step or rebuilt from 0.
import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory } from '../../src/commands/forget.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import { executeSubjectCommand } from '../../src/commands/subject/execute.js';
import { inputRoot } from '../../src/domain/canonical/input-root.js';
import { encodeEvent } from '../../src/domain/events/decode.js';
import type { Manifest } from '../../src/domain/events/manifest.js';
import { artifactStreamName, subjectStreamName } from '../../src/domain/events/stream-names.js';
import {
  memoryProjection,
  openProjectionDatabase,
  readActive,
  rebuildProjection,
  type MemoryProjectionDb,
  type ProjectionDatabase,
} from '../../src/projections/index.js';
import { activeSchema } from '../../src/projections/runtime/registry.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { digestSchema } from './support/digest.js';
import { catchUpWith, lastPositionOf } from './support/log-horizon.js';
import { legacyRecordOf } from '../support/legacy-record.js';

const TENANT = 'acme';
const hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('STALE propagation through lineage', () => {
  let test: TestLedger;
  let projections: ProjectionDatabase;

  beforeAll(async () => {
    test = await openTestLedger('proj_stale');
    projections = await openProjectionDatabase(test.ledger.databaseUrl);
  });
  afterAll(async () => {
    await projections?.close();
    await test?.close();
  });

  const context = (subject: string) => ({ tenant: TENANT, subject });
  async function record(subject: string, key: string, text: string): Promise<string> {
    written.add(subjectStreamName(TENANT, subject));
    const outcome = await recordMemory(test.ledger, context(subject), {
      kind: 'semantic',
      key,
      value: { type: 'text', text },
      source: { type: 'user_assertion', refs: [`msg://${subject}/${key}`] },
    });
    if (!outcome.ok) throw new Error(outcome.rejection.message);
    return outcome.result.memoryId;
  }

  /** A manifest over the given inputs, fenced on the subject's current state. */
  async function manifest(subject: string, artifactId: string, inputs: string[], parentArtifactId: string | null): Promise<Manifest> {
    const { state } = await test.ledger.subjects.load(subjectStreamName(TENANT, subject));
    const manifestInputs = inputs.map((id) => {
      const entry = state.entries.get(id)!;
      return {
        memoryId: id,
        sequence: entry.sequence,
        valueHash: entry.valueHash,
        ...(entry.contentHash ? { contentHash: entry.contentHash } : {}),
      };
    });
    return {
      artifactId,
      tenant: TENANT,
      subject,
      newCoversThrough: state.highWaterMark,
      inputEpoch: state.inputEpoch,
      expectedAlias: state.alias,
      inputs: manifestInputs,
      inputRoot: inputRoot(manifestInputs),
      conflictIds: [...state.openConflictIds],
      parentArtifactId,
      selectorVersion: 'sel-1',
      promptVersion: 'p-1',
      modelSnapshot: 'deterministic-1',
    };
  }

  /** ArtifactGenerated + GatePassed on the artifact stream, then (optionally) the alias switch on the subject stream. */
  async function publish(m: Manifest, options: { switchAlias: boolean } = { switchAlias: true }): Promise<void> {
    const now = new Date().toISOString();
    const events = [
      encodeEvent({
        type: 'ArtifactGenerated',
        data: {
          artifactId: m.artifactId,
          manifest: m,
          output: { alg: 'A256GCM', keyId: 'k-1', iv: 'AAAAAAAAAAAAAAAA', ct: Buffer.from(m.artifactId).toString('base64') },
          outputHash: hex(m.artifactId),
          record: legacyRecordOf(m),
          generatedAt: now,
        },
      }),
      encodeEvent({ type: 'GatePassed', data: { artifactId: m.artifactId, mustPreserveCount: m.inputs.length, checkedAt: now } }),
    ];
    written.add(artifactStreamName(m.artifactId));
    await test.ledger.eventStore.append(
      artifactStreamName(m.artifactId),
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { schemaVersion: e.schemaVersion } })),
      { expectedRevision: 'no_stream' },
    );
    if (!options.switchAlias) return;
    const outcome = await executeSubjectCommand(
      test.ledger,
      { stream: subjectStreamName(TENANT, m.subject), commandId: randomUUID() },
      (_loaded, at) => ({ type: 'SwitchSummaryAlias', manifest: m, now: at }),
    );
    if (!outcome.ok) throw new Error(`switch refused: ${outcome.rejection.code}`);
  }

  const tables = <T>(read: (t: Kysely<MemoryProjectionDb>) => Promise<T>) => readActive(projections.db, 'memory', read);
  const staleRows = () => tables((t) => t.selectFrom('stale_artifacts').selectAll().orderBy('artifact_id').execute());
  const artifact = (id: string) =>
    tables((t) => t.selectFrom('artifacts').selectAll().where('artifact_id', '=', id).executeTakeFirstOrThrow());
  /** Every stream this file writes: the projections must show all of them. */
  const written = new Set<string>();
  const catchUp = () => catchUpWith(test.ledger.eventStore, projections.db, [...written]);

  it('marks a summary, the summary built on it and the one built on that STALE when a raw entry under the first is retracted', async () => {
    const m1 = await record('u-1', 'notification.preference', 'sms');
    const m2 = await record('u-1', 'delivery.delay', '72h');
    const m3 = await record('u-1', 'language', 'zh');
    await publish(await manifest('u-1', 'a-1', [m1, m2, m3], null));
    const m4 = await record('u-1', 'shipping.city', 'Shanghai');
    await publish(await manifest('u-1', 'a-2', [m4], 'a-1'));
    const m5 = await record('u-1', 'refund.policy', 'store credit');
    await publish(await manifest('u-1', 'a-3', [m5], 'a-2'));
    // Another subject's summary, built on nothing that changes.
    const other = await record('u-2', 'language', 'en');
    await publish(await manifest('u-2', 'b-1', [other], null));
    await catchUp();
    expect(await staleRows()).toEqual([]);
    expect((await artifact('a-3')).status).toBe('published');
    const edges = await tables((t) =>
      t
        .selectFrom('lineage_edges')
        .select(['artifact_id', 'kind', 'target_id', 'target_version'])
        .where('artifact_id', 'in', ['a-2', 'a-3'])
        .orderBy('artifact_id')
        .orderBy('kind')
        .execute(),
    );
    expect(edges).toEqual([
      { artifact_id: 'a-2', kind: 'artifact', target_id: 'a-1', target_version: null },
      { artifact_id: 'a-2', kind: 'memory', target_id: m4, target_version: 1 },
      { artifact_id: 'a-3', kind: 'artifact', target_id: 'a-2', target_version: null },
      { artifact_id: 'a-3', kind: 'memory', target_id: m5, target_version: 1 },
    ]);

    const retraction = await retractMemory(test.ledger, context('u-1'), m2, 'the user took it back');
    if (!retraction.ok) throw new Error(retraction.rejection.message);
    await catchUp();
    const retractionEvent = await test.ledger.eventStore.readStream(subjectStreamName(TENANT, 'u-1'), {
      direction: 'backwards',
      maxCount: 1,
    });
    const stale = await staleRows();
    expect(stale.map((s) => [s.artifact_id, s.cause_type, s.cause_event_id, s.cause_memory_id, s.via_artifact_id])).toEqual([
      ['a-1', 'MemoryRetracted', retractionEvent[0]!.id, m2, null],
      ['a-2', 'MemoryRetracted', retractionEvent[0]!.id, m2, 'a-1'],
      ['a-3', 'MemoryRetracted', retractionEvent[0]!.id, m2, 'a-2'],
    ]);
    for (const s of stale) expect([s.marked_commit, s.marked_prepare]).toEqual([s.cause_commit, s.cause_prepare]);

    // Built on a STALE parent: STALE from its generation, through the parent, with the parent's cause.
    await publish(await manifest('u-1', 'a-4', [], 'a-3'), { switchAlias: false });
    await catchUp();
    const a4 = (await staleRows()).find((s) => s.artifact_id === 'a-4')!;
    expect([a4.cause_event_id, a4.via_artifact_id]).toEqual([retractionEvent[0]!.id, 'a-3']);
    const a4Generated = (await test.ledger.eventStore.readStream(artifactStreamName('a-4')))[0]!;
    expect([a4.marked_commit, a4.marked_prepare]).toEqual([String(a4Generated.position.commit), String(a4Generated.position.prepare)]);

    // Erasure of an entry under a-2: a-2 and everything built on it lose their output; a-1 keeps its.
    const forgotten = await forgetMemory(test.ledger, context('u-1'), m4);
    if (!forgotten.ok) throw new Error(forgotten.rejection.message);
    await catchUp();
    expect((await artifact('a-1')).output).not.toBeNull();
    for (const id of ['a-2', 'a-3', 'a-4'])
      expect([id, (await artifact(id)).output, (await artifact(id)).output_erased]).toEqual([id, null, true]);
    expect((await staleRows()).map((s) => s.artifact_id)).toEqual(['a-1', 'a-2', 'a-3', 'a-4']);
    expect((await artifact('b-1')).output).not.toBeNull();

    // The same rows when rebuilt from position 0.
    const incremental = await digestSchema(projections.db, (await activeSchema(projections.db, 'memory'))!.schema_name);
    const rebuilt = await rebuildProjection(projections.db, test.ledger.eventStore, memoryProjection, {
      until: (await lastPositionOf(test.ledger.eventStore, [...written]))!,
    });
    expect(await digestSchema(projections.db, rebuilt.schema)).toEqual(incremental);
  });

  it('marks a child that reached the log before its parent when the parent turns out STALE', async () => {
    const m1 = await record('u-3', 'language', 'zh');
    const m2 = await record('u-3', 'delivery.delay', '48h');
    const parent = await manifest('u-3', 'p-1', [m1], null);
    const child = await manifest('u-3', 'c-1', [m2], 'p-1');
    // Two artifact streams have no order between them: the child's lands first.
    await publish(child, { switchAlias: false });
    const retraction = await retractMemory(test.ledger, context('u-3'), m1, 'withdrawn');
    if (!retraction.ok) throw new Error(retraction.rejection.message);
    await catchUp();
    expect((await staleRows()).filter((s) => s.subject === 'u-3')).toEqual([]);
    // The parent was built on m1 before the retraction, but is written after it.
    await publish(parent, { switchAlias: false });
    await catchUp();
    const stale = (await staleRows()).filter((s) => s.subject === 'u-3');
    expect(stale.map((s) => [s.artifact_id, s.cause_type, s.cause_memory_id, s.via_artifact_id])).toEqual([
      ['c-1', 'MemoryRetracted', m1, 'p-1'],
      ['p-1', 'MemoryRetracted', m1, null],
    ]);
    const incremental = await digestSchema(projections.db, (await activeSchema(projections.db, 'memory'))!.schema_name);
    const rebuilt = await rebuildProjection(projections.db, test.ledger.eventStore, memoryProjection, {
      until: (await lastPositionOf(test.ledger.eventStore, [...written]))!,
    });
    expect(await digestSchema(projections.db, rebuilt.schema)).toEqual(incremental);
  });
});
