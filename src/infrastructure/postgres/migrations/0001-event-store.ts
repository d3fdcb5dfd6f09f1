// The PostgreSQL event store: one table, the log. Stream revisions are
// guarded by the unique (stream_name, stream_revision) index, not by a lock
// table (see src/infrastructure/event-store/postgres/append.ts); why the log
// is keyed by (transaction_id, global_position) is explained in
// src/infrastructure/event-store/postgres/log-order.ts.
import { sql, type Kysely, type Migration } from 'kysely';

export const eventStoreMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('events')
      .addColumn('global_position', 'bigint', (col) => col.notNull().generatedAlwaysAsIdentity())
      .addColumn('transaction_id', sql`xid8`, (col) => col.notNull().defaultTo(sql`pg_current_xact_id()`))
      .addColumn('stream_name', 'text', (col) => col.notNull())
      .addColumn('stream_revision', 'bigint', (col) => col.notNull())
      .addColumn('event_id', 'uuid', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('data', 'jsonb', (col) => col.notNull())
      .addColumn('metadata', 'jsonb', (col) => col.notNull())
      // Commit time truncated to milliseconds, the precision the port reports.
      .addColumn('recorded_at', 'timestamptz', (col) => col.notNull())
      // The log order, and the Position of an event.
      .addPrimaryKeyConstraint('events_log_order', ['transaction_id', 'global_position'])
      // One event per revision: what makes concurrent appends to a stream exclusive.
      .addUniqueConstraint('events_stream_revision', ['stream_name', 'stream_revision'])
      // Event ids are unique store-wide: a reused id is a retry or a conflict.
      .addUniqueConstraint('events_event_id', ['event_id'])
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('events').execute();
  },
};
