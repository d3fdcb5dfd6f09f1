// Writes what a batch applied, one set-based statement per kind of change,
// inside the batch's transaction. Every multi-row write goes through
// unnest() (runtime/bulk.ts): one array parameter per column, so no batch,
// however many rows it writes, meets PostgreSQL's 65,535 bind parameters. Erasure runs before the inserts, so it only
// reaches rows stored before the batch (rows of the batch were erased in
// memory, exactly those that existed when the erasure happened).
import type { Insertable, Kysely } from 'kysely';
import type { MemoryProjectionDb, SubjectClockTable } from '../tables.js';
import type { ArtifactGraph } from './artifact-graph.js';
import { columnsOf, unnestRows } from '../../runtime/bulk.js';
import {
  ARTIFACT_TYPES,
  CLOCK_TYPES,
  CORROBORATION_TYPES,
  DEMOTION_TYPES,
  LINEAGE_EDGE_TYPES,
  MEMORY_VERSION_TYPES,
  STALE_ARTIFACT_TYPES,
  SUMMARY_ALIAS_TYPES,
  TAINT_ESCALATION_TYPES,
  USAGE_TYPES,
} from './column-types.js';
import { writeEdgeErasures, writeErasures } from './flush-erasures.js';
import type { MemoryLedger } from './memory-ledger.js';
import type { MemoryUsageLedger } from './memory-usage.js';
import { toRow } from './memory-version.js';
import type { SubjectClocks } from './subject-clocks.js';
import type { SubjectRecords } from './subject-records.js';

export interface BatchChanges {
  readonly memories: MemoryLedger;
  readonly clocks: SubjectClocks;
  readonly records: SubjectRecords;
  readonly graph: ArtifactGraph;
  readonly usage: MemoryUsageLedger;
}

export async function flush(db: Kysely<MemoryProjectionDb>, changes: BatchChanges): Promise<void> {
  await writeErasures(db, changes.memories);
  await writeCloses(db, changes.memories);
  if (changes.memories.inserts.length > 0) {
    await db
      .insertInto('memory_versions')
      .columns(columnsOf(MEMORY_VERSION_TYPES))
      .expression(unnestRows(changes.memories.inserts.map(toRow), MEMORY_VERSION_TYPES))
      .execute();
  }
  await writeRecords(db, changes.records);
  await writeUsage(db, changes.usage);
  await writeClocks(db, changes.clocks);
  await writeArtifacts(db, changes.graph);
  await writeEdgeErasures(db, changes.memories, changes.graph);
}

async function writeUsage(db: Kysely<MemoryProjectionDb>, usage: MemoryUsageLedger): Promise<void> {
  const rows = usage.rows();
  if (rows.length === 0) return;
  await db
    .insertInto('memory_usage')
    .columns(columnsOf(USAGE_TYPES))
    .expression(unnestRows(rows, USAGE_TYPES))
    .onConflict((oc) =>
      oc.columns(['tenant', 'subject', 'memory_id']).doUpdateSet((eb) => ({
        used_count: eb.ref('excluded.used_count'),
        confirmed_count: eb.ref('excluded.confirmed_count'),
        ignored_count: eb.ref('excluded.ignored_count'),
        harmful_count: eb.ref('excluded.harmful_count'),
        corrected_count: eb.ref('excluded.corrected_count'),
        last_reinforced_at: eb.ref('excluded.last_reinforced_at'),
        under_review: eb.ref('excluded.under_review'),
      })),
    )
    .execute();
}

async function writeCloses(db: Kysely<MemoryProjectionDb>, memories: MemoryLedger): Promise<void> {
  if (memories.closes.length === 0) return;
  const closes = unnestRows(
    memories.closes.map((c) => ({
      tenant: c.tenant,
      subject: c.subject,
      memory_id: c.memoryId,
      version: c.version,
      tx_to: c.txTo,
      tx_to_commit: c.txToCommit,
      tx_to_prepare: c.txToPrepare,
      closed_by: c.closedBy,
    })),
    {
      tenant: 'text',
      subject: 'text',
      memory_id: 'text',
      version: 'int4',
      tx_to: 'timestamptz',
      tx_to_commit: 'int8',
      tx_to_prepare: 'int8',
      closed_by: 'uuid',
    },
  ).as('c');
  await db
    .updateTable('memory_versions as m')
    .from(closes)
    .set((eb) => ({
      tx_to: eb.ref('c.tx_to'),
      tx_to_commit: eb.ref('c.tx_to_commit'),
      tx_to_prepare: eb.ref('c.tx_to_prepare'),
      closed_by: eb.ref('c.closed_by'),
    }))
    .whereRef('m.tenant', '=', 'c.tenant')
    .whereRef('m.subject', '=', 'c.subject')
    .whereRef('m.memory_id', '=', 'c.memory_id')
    .whereRef('m.version', '=', 'c.version')
    .execute();
}

async function writeRecords(db: Kysely<MemoryProjectionDb>, records: SubjectRecords): Promise<void> {
  if (records.corroborations.length > 0) {
    await db
      .insertInto('memory_corroborations')
      .columns(columnsOf(CORROBORATION_TYPES))
      .expression(unnestRows(records.corroborations, CORROBORATION_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  if (records.demotions.length > 0) {
    await db
      .insertInto('memory_demotions')
      .columns(columnsOf(DEMOTION_TYPES))
      .expression(unnestRows(records.demotions, DEMOTION_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  if (records.taintEscalations.length > 0) {
    await db
      .insertInto('taint_escalations')
      .columns(columnsOf(TAINT_ESCALATION_TYPES))
      .expression(unnestRows(records.taintEscalations, TAINT_ESCALATION_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  if (records.aliases.size > 0) {
    await db
      .insertInto('summary_alias')
      .columns(columnsOf(SUMMARY_ALIAS_TYPES))
      .expression(unnestRows([...records.aliases.values()], SUMMARY_ALIAS_TYPES))
      .onConflict((oc) =>
        oc.columns(['tenant', 'subject']).doUpdateSet((eb) => ({
          artifact_id: eb.ref('excluded.artifact_id'),
          source_epoch: eb.ref('excluded.source_epoch'),
          covers_through: eb.ref('excluded.covers_through'),
          switched_at: eb.ref('excluded.switched_at'),
          event_id: eb.ref('excluded.event_id'),
          tx: eb.ref('excluded.tx'),
          commit: eb.ref('excluded.commit'),
          prepare: eb.ref('excluded.prepare'),
        })),
      )
      .execute();
  }
}

async function writeClocks(db: Kysely<MemoryProjectionDb>, clocks: SubjectClocks): Promise<void> {
  const changed = clocks.changed();
  if (changed.length === 0) return;
  const rows: Insertable<SubjectClockTable>[] = changed.map((c) => ({
    tenant: c.tenant,
    subject: c.subject,
    high_water_mark: c.highWaterMark,
    input_epoch: c.inputEpoch,
    stream_revision: String(c.streamRevision),
    forgotten: c.forgotten,
    updated_tx: c.updatedTx,
    updated_commit: c.updatedCommit,
    updated_prepare: c.updatedPrepare,
  }));
  await db
    .insertInto('subject_clock')
    .columns(columnsOf(CLOCK_TYPES))
    .expression(unnestRows(rows, CLOCK_TYPES))
    .onConflict((oc) =>
      oc.columns(['tenant', 'subject']).doUpdateSet((eb) => ({
        high_water_mark: eb.ref('excluded.high_water_mark'),
        input_epoch: eb.ref('excluded.input_epoch'),
        stream_revision: eb.ref('excluded.stream_revision'),
        forgotten: eb.ref('excluded.forgotten'),
        updated_tx: eb.ref('excluded.updated_tx'),
        updated_commit: eb.ref('excluded.updated_commit'),
        updated_prepare: eb.ref('excluded.updated_prepare'),
      })),
    )
    .execute();
}

async function writeArtifacts(db: Kysely<MemoryProjectionDb>, graph: ArtifactGraph): Promise<void> {
  const rows = graph.dirtyRows();
  if (rows.length > 0) {
    await db
      .insertInto('artifacts')
      .columns(columnsOf(ARTIFACT_TYPES))
      .expression(unnestRows(rows, ARTIFACT_TYPES))
      .onConflict((oc) =>
        oc.column('artifact_id').doUpdateSet((eb) => ({
          tenant: eb.ref('excluded.tenant'),
          subject: eb.ref('excluded.subject'),
          status: eb.ref('excluded.status'),
          stream_revision: eb.ref('excluded.stream_revision'),
          parent_artifact_id: eb.ref('excluded.parent_artifact_id'),
          new_covers_through: eb.ref('excluded.new_covers_through'),
          input_epoch: eb.ref('excluded.input_epoch'),
          input_root: eb.ref('excluded.input_root'),
          input_count: eb.ref('excluded.input_count'),
          conflict_ids: eb.ref('excluded.conflict_ids'),
          expected_alias: eb.ref('excluded.expected_alias'),
          selector_version: eb.ref('excluded.selector_version'),
          prompt_version: eb.ref('excluded.prompt_version'),
          model_snapshot: eb.ref('excluded.model_snapshot'),
          output: eb.ref('excluded.output'),
          output_hash: eb.ref('excluded.output_hash'),
          output_erased: eb.ref('excluded.output_erased'),
          generated_at: eb.ref('excluded.generated_at'),
          generated_tx: eb.ref('excluded.generated_tx'),
          generated_commit: eb.ref('excluded.generated_commit'),
          generated_prepare: eb.ref('excluded.generated_prepare'),
          must_preserve_count: eb.ref('excluded.must_preserve_count'),
          gate_failures: eb.ref('excluded.gate_failures'),
          generation_error: eb.ref('excluded.generation_error'),
          rejection_reason: eb.ref('excluded.rejection_reason'),
          rejection_message: eb.ref('excluded.rejection_message'),
          published_tx: eb.ref('excluded.published_tx'),
          published_commit: eb.ref('excluded.published_commit'),
          published_prepare: eb.ref('excluded.published_prepare'),
          updated_tx: eb.ref('excluded.updated_tx'),
          updated_commit: eb.ref('excluded.updated_commit'),
          updated_prepare: eb.ref('excluded.updated_prepare'),
        })),
      )
      .execute();
  }
  if (graph.edges.length > 0)
    await db
      .insertInto('lineage_edges')
      .columns(columnsOf(LINEAGE_EDGE_TYPES))
      .expression(unnestRows(graph.edges, LINEAGE_EDGE_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
  if (graph.staleRows.length > 0)
    await db
      .insertInto('stale_artifacts')
      .columns(columnsOf(STALE_ARTIFACT_TYPES))
      .expression(unnestRows(graph.staleRows, STALE_ARTIFACT_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
}
