// The PostgreSQL event store: streams (the optimistic-concurrency row lock),
// events (the log), and the append function that does a whole append in one
// round trip. Semantics are EventStoreDB's; why the log is keyed by
// (transaction_id, global_position) is explained in
// src/infrastructure/event-store/postgres/log-order.ts.
import { sql, type Kysely, type Migration } from 'kysely';

export const eventStoreMigration: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('streams')
      .addColumn('stream_name', 'text', (col) => col.primaryKey())
      // Revision of the stream's last event; -1 only inside the transaction
      // that creates the stream (a row to lock on), never committed.
      .addColumn('revision', 'bigint', (col) => col.notNull())
      .execute();

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
      // The log order and the Position of an event.
      .addPrimaryKeyConstraint('events_log_order', ['transaction_id', 'global_position'])
      .addUniqueConstraint('events_stream_revision', ['stream_name', 'stream_revision'])
      .addUniqueConstraint('events_event_id', ['event_id'])
      .execute();

    // One round trip per append: lock the stream row, check idempotency, then
    // the expected revision, insert, bump the revision. Failures raise
    // (rolling back everything, the lock row included):
    //   ML001 wrong expected version, DETAIL = actual revision (-1: no stream)
    //   ML002 idempotency conflict,   DETAIL = the conflicting event id
    // p_expected is 'any' | 'no_stream' | 'stream_exists' | 'exact' (then p_revision).
    // p_events is a JSON array of {id, type, data, metadata}.
    await sql`
      create function event_store_append(p_stream text, p_expected text, p_revision bigint, p_events jsonb)
      returns table (next_revision bigint, commit_position text, prepare_position bigint)
      language plpgsql as $fn$
      declare
        v_count int := jsonb_array_length(p_events);
        v_current bigint;
        v_found int;
        v_in_stream boolean;
        v_base_min bigint;
        v_base_max bigint;
        v_conflict text;
        v_xid xid8;
        v_now timestamptz;
      begin
        select s.revision into v_current from streams s where s.stream_name = p_stream for update;
        if not found then
          -- A new stream: the inserted row is the lock. A concurrent creator
          -- makes us wait for its commit; then we lock its row instead.
          insert into streams (stream_name, revision) values (p_stream, -1) on conflict do nothing;
          if found then
            v_current := -1;
          else
            select s.revision into v_current from streams s where s.stream_name = p_stream for update;
          end if;
        end if;

        -- Idempotency first, under the lock (so two racing retries agree):
        -- the batch is already stored iff every id is in this stream, in batch
        -- order, at consecutive revisions consistent with the expectation.
        select count(*), bool_and(e.stream_name = p_stream),
               min(e.stream_revision - b.ord), max(e.stream_revision - b.ord),
               (array_agg(e.event_id::text order by b.ord))[1]
          into v_found, v_in_stream, v_base_min, v_base_max, v_conflict
          from jsonb_array_elements(p_events) with ordinality as b(value, ord)
          join events e on e.event_id = (b.value->>'id')::uuid;
        if v_found > 0 then
          if v_found = v_count and v_in_stream and v_base_min = v_base_max
             and (p_expected in ('any', 'stream_exists')
                  or (p_expected = 'no_stream' and v_base_min + 1 = 0)
                  or (p_expected = 'exact' and v_base_min + 1 = p_revision + 1)) then
            return query
              select e.stream_revision, e.transaction_id::text, e.global_position
                from events e
               where e.stream_name = p_stream and e.stream_revision = v_base_min + v_count;
            return;
          end if;
        end if;

        if (p_expected = 'no_stream' and v_current <> -1)
           or (p_expected = 'stream_exists' and v_current = -1)
           or (p_expected = 'exact' and v_current <> p_revision) then
          raise exception 'wrong expected version on %', p_stream using errcode = 'ML001', detail = v_current::text;
        end if;
        if v_found > 0 then
          raise exception 'event % is already stored, but not as this batch in %', v_conflict, p_stream
            using errcode = 'ML002', detail = v_conflict;
        end if;

        v_xid := pg_current_xact_id();
        -- Taken under the stream lock, so a stream's recordedAt never goes back.
        v_now := date_trunc('milliseconds', clock_timestamp());
        update streams set revision = v_current + v_count where stream_name = p_stream;
        return query
          with inserted as (
            insert into events (transaction_id, stream_name, stream_revision, event_id, type, data, metadata, recorded_at)
            select v_xid, p_stream, v_current + b.ord, (b.value->>'id')::uuid, b.value->>'type', b.value->'data', b.value->'metadata', v_now
              from jsonb_array_elements(p_events) with ordinality as b(value, ord)
             order by b.ord
            returning global_position
          )
          select v_current + v_count, v_xid::text, max(inserted.global_position) from inserted;
      end
      $fn$
    `.execute(db);
  },

  async down(db: Kysely<any>): Promise<void> {
    await sql`drop function event_store_append(text, text, bigint, jsonb)`.execute(db);
    await db.schema.dropTable('events').execute();
    await db.schema.dropTable('streams').execute();
  },
};
