// The memory projection's tables (types in tables.ts), as kysely schema
// builders for one PostgreSQL schema. The runtime hashes the compiled
// statements: any change here changes the definition hash, so a projector
// with the new definition refuses to run on tables built by the old one.
import { sql } from 'kysely';
import type { TableStatement } from '../runtime/projection.js';
import type { ProjectionsKysely } from '../runtime/schema-handles.js';

const INSTANT = 'timestamptz';

export function memoryTables(db: ProjectionsKysely, schema: string): TableStatement[] {
  const s = db.schema.withSchema(schema);
  return [
    s
      .createTable('memory_versions')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('memory_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('scopes', 'jsonb', (c) => c.notNull())
      .addColumn('value_type', 'text', (c) => c.notNull())
      .addColumn('value_hash', 'text')
      .addColumn('value', 'jsonb')
      .addColumn('polarity', 'text', (c) => c.notNull())
      .addColumn('content', 'jsonb')
      .addColumn('content_hash', 'text')
      .addColumn('anticipated_queries', 'jsonb')
      .addColumn('source_type', 'text', (c) => c.notNull())
      .addColumn('source_refs', 'jsonb', (c) => c.notNull())
      .addColumn('trust', 'text', (c) => c.notNull())
      .addColumn('confidence', 'double precision')
      .addColumn('sensitivity', 'text', (c) => c.notNull())
      .addColumn('consent_ref', 'text')
      .addColumn('purposes', 'jsonb')
      .addColumn('refines', 'jsonb')
      .addColumn('valid_from', INSTANT, (c) => c.notNull())
      .addColumn('valid_to', INSTANT)
      .addColumn('expires_at', INSTANT)
      .addColumn('superseded_by', 'text')
      .addColumn('tx_from', INSTANT, (c) => c.notNull())
      .addColumn('tx_to', INSTANT)
      .addColumn('tx_from_commit', 'bigint', (c) => c.notNull())
      .addColumn('tx_from_prepare', 'bigint', (c) => c.notNull())
      .addColumn('tx_to_commit', 'bigint')
      .addColumn('tx_to_prepare', 'bigint')
      .addColumn('opened_by', 'uuid', (c) => c.notNull())
      .addColumn('opened_by_type', 'text', (c) => c.notNull())
      .addColumn('closed_by', 'uuid')
      .addColumn('promoted_from', 'jsonb')
      .addPrimaryKeyConstraint('memory_versions_pk', ['tenant', 'subject', 'memory_id', 'version'])
      .addCheckConstraint(
        'memory_versions_status',
        sql`status in ('active', 'superseded', 'retracted', 'expired', 'archived', 'forgotten')`,
      )
      .addCheckConstraint('memory_versions_tx_order', sql`tx_to is null or tx_to >= tx_from`),
    // The current versions of a subject's slots (recall, as-of at a system time).
    s.createIndex('memory_versions_by_key').on('memory_versions').columns(['tenant', 'subject', 'key', 'tx_from']),
    s
      .createTable('memory_corroborations')
      .addColumn('event_id', 'uuid', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('memory_id', 'text', (c) => c.notNull())
      .addColumn('source_type', 'text', (c) => c.notNull())
      .addColumn('source_refs', 'jsonb', (c) => c.notNull())
      .addColumn('confidence', 'double precision')
      .addColumn('corroborated_at', INSTANT, (c) => c.notNull())
      .addColumn('tx', INSTANT, (c) => c.notNull())
      .addColumn('commit', 'bigint', (c) => c.notNull())
      .addColumn('prepare', 'bigint', (c) => c.notNull()),
    s.createIndex('memory_corroborations_by_memory').on('memory_corroborations').columns(['tenant', 'subject', 'memory_id']),
    s
      .createTable('memory_demotions')
      .addColumn('event_id', 'uuid', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('memory_id', 'text', (c) => c.notNull())
      .addColumn('demoted', 'boolean', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('rule', 'text')
      .addColumn('policy_version', 'integer')
      .addColumn('changed_at', INSTANT, (c) => c.notNull())
      .addColumn('tx', INSTANT, (c) => c.notNull())
      .addColumn('commit', 'bigint', (c) => c.notNull())
      .addColumn('prepare', 'bigint', (c) => c.notNull()),
    s.createIndex('memory_demotions_by_subject').on('memory_demotions').columns(['tenant', 'subject', 'memory_id']),
    s
      .createTable('memory_usage')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('memory_id', 'text', (c) => c.notNull())
      .addColumn('used_count', 'integer', (c) => c.notNull())
      .addColumn('confirmed_count', 'integer', (c) => c.notNull())
      .addColumn('ignored_count', 'integer', (c) => c.notNull())
      .addColumn('harmful_count', 'integer', (c) => c.notNull())
      .addColumn('corrected_count', 'integer', (c) => c.notNull())
      .addColumn('last_reinforced_at', INSTANT)
      .addColumn('under_review', 'boolean', (c) => c.notNull())
      .addPrimaryKeyConstraint('memory_usage_pk', ['tenant', 'subject', 'memory_id']),
    s
      .createTable('subject_clock')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('high_water_mark', 'integer', (c) => c.notNull())
      .addColumn('input_epoch', 'integer', (c) => c.notNull())
      .addColumn('stream_revision', 'bigint', (c) => c.notNull())
      .addColumn('forgotten', 'boolean', (c) => c.notNull())
      .addColumn('updated_tx', INSTANT, (c) => c.notNull())
      .addColumn('updated_commit', 'bigint', (c) => c.notNull())
      .addColumn('updated_prepare', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('subject_clock_pk', ['tenant', 'subject']),
    s
      .createTable('taint_escalations')
      .addColumn('event_id', 'uuid', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('policy_version', 'integer', (c) => c.notNull())
      .addColumn('ref_patterns', 'jsonb', (c) => c.notNull())
      .addColumn('source_types', 'jsonb', (c) => c.notNull())
      .addColumn('tx', INSTANT, (c) => c.notNull())
      .addColumn('commit', 'bigint', (c) => c.notNull())
      .addColumn('prepare', 'bigint', (c) => c.notNull()),
    s.createIndex('taint_escalations_by_subject').on('taint_escalations').columns(['tenant', 'subject']),
    s
      .createTable('summary_alias')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('artifact_id', 'text', (c) => c.notNull())
      .addColumn('source_epoch', 'integer', (c) => c.notNull())
      .addColumn('covers_through', 'integer', (c) => c.notNull())
      .addColumn('switched_at', INSTANT, (c) => c.notNull())
      .addColumn('event_id', 'uuid', (c) => c.notNull())
      .addColumn('tx', INSTANT, (c) => c.notNull())
      .addColumn('commit', 'bigint', (c) => c.notNull())
      .addColumn('prepare', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('summary_alias_pk', ['tenant', 'subject']),
    s
      .createTable('artifacts')
      .addColumn('artifact_id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text')
      .addColumn('subject', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('stream_revision', 'bigint', (c) => c.notNull())
      .addColumn('parent_artifact_id', 'text')
      .addColumn('new_covers_through', 'integer')
      .addColumn('input_epoch', 'integer')
      .addColumn('input_root', 'text')
      .addColumn('input_count', 'integer')
      .addColumn('conflict_ids', 'jsonb')
      .addColumn('expected_alias', 'jsonb')
      .addColumn('selector_version', 'text')
      .addColumn('prompt_version', 'text')
      .addColumn('model_snapshot', 'text')
      .addColumn('output', 'jsonb')
      .addColumn('output_hash', 'text')
      .addColumn('output_erased', 'boolean', (c) => c.notNull())
      .addColumn('generated_at', INSTANT)
      .addColumn('generated_tx', INSTANT)
      .addColumn('generated_commit', 'bigint')
      .addColumn('generated_prepare', 'bigint')
      .addColumn('must_preserve_count', 'integer')
      .addColumn('gate_failures', 'jsonb')
      .addColumn('generation_error', 'jsonb')
      .addColumn('rejection_reason', 'text')
      .addColumn('rejection_message', 'text')
      .addColumn('published_tx', INSTANT)
      .addColumn('published_commit', 'bigint')
      .addColumn('published_prepare', 'bigint')
      .addColumn('updated_tx', INSTANT, (c) => c.notNull())
      .addColumn('updated_commit', 'bigint', (c) => c.notNull())
      .addColumn('updated_prepare', 'bigint', (c) => c.notNull())
      .addCheckConstraint(
        'artifacts_status',
        sql`status in ('generated', 'gate_passed', 'gate_failed', 'generation_failed', 'rejected', 'published')`,
      ),
    s.createIndex('artifacts_by_subject').on('artifacts').columns(['tenant', 'subject']),
    s
      .createTable('lineage_edges')
      .addColumn('artifact_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target_tenant', 'text', (c) => c.notNull())
      .addColumn('target_subject', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('target_version', 'integer')
      .addColumn('target_sequence', 'integer')
      .addColumn('value_hash', 'text')
      .addColumn('content_hash', 'text')
      .addColumn('commit', 'bigint', (c) => c.notNull())
      .addColumn('prepare', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('lineage_edges_pk', ['artifact_id', 'kind', 'target_id'])
      .addCheckConstraint('lineage_edges_kind', sql`kind in ('memory', 'artifact')`),
    // "What derives from this memory / this artifact": STALE propagation and lineage queries.
    s.createIndex('lineage_edges_by_target').on('lineage_edges').columns(['target_id', 'kind']),
    // "Every edge into this subject": an erasure's check of the projection reads them without scanning every tenant's edges.
    s.createIndex('lineage_edges_by_target_subject').on('lineage_edges').columns(['target_tenant', 'target_subject']),
    s
      .createTable('stale_artifacts')
      .addColumn('artifact_id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('cause_event_id', 'uuid', (c) => c.notNull())
      .addColumn('cause_type', 'text', (c) => c.notNull())
      .addColumn('cause_tx', INSTANT, (c) => c.notNull())
      .addColumn('cause_commit', 'bigint', (c) => c.notNull())
      .addColumn('cause_prepare', 'bigint', (c) => c.notNull())
      .addColumn('cause_memory_id', 'text')
      .addColumn('via_artifact_id', 'text')
      .addColumn('marked_commit', 'bigint', (c) => c.notNull())
      .addColumn('marked_prepare', 'bigint', (c) => c.notNull()),
    s.createIndex('stale_artifacts_by_subject').on('stale_artifacts').columns(['tenant', 'subject']),
  ];
}
