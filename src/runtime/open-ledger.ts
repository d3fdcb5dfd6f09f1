// The composition root: from the environment to a working ledger (event
// store, key store, folded subjects), on the embedded server when nothing is
// configured. The CLI and the HTTP service both start here.
import type { Ledger } from '../commands/ledger.js';
import { SubjectRepository } from '../reads/streams/subject-repository.js';
import { WritePolicies } from '../commands/policy/write-policies.js';
import { resolveConnections, readConfig, type ResolveOptions } from '../infrastructure/config.js';
import { MEMLEDGER_STREAM_PREFIXES } from '../domain/events/stream-names.js';
import type { EventStore } from '../infrastructure/event-store/port.js';
import { openPostgresEventStore } from '../infrastructure/event-store/postgres/open.js';
import { loadMasterKeyring } from '../infrastructure/key-store/master-key.js';
import { PostgresKeyStore } from '../infrastructure/key-store/postgres-key-store.js';
import { migrateToLatest } from '../infrastructure/postgres/migrate.js';
import { embedderFromEnv } from '../infrastructure/embeddings/from-env.js';
import { expanderFromEnv } from '../infrastructure/expansion/from-env.js';
import { PostgresVectorStore } from '../infrastructure/vectors/postgres-vector-store.js';

export interface OpenLedger extends Ledger {
  /** The projections' PostgreSQL. */
  readonly databaseUrl: string;
  /** Starts the embedded server again if it died (true: this call did); false on a configured database. */
  revive(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openLedger(options: ResolveOptions & { readonly clock?: () => Date } = {}): Promise<OpenLedger> {
  const env = options.env ?? process.env;
  const config = readConfig(env, options.cwd ?? process.cwd());
  // A bad master key is a configuration error: refused before any server starts.
  const { keyring } = await loadMasterKeyring({ env, dataDir: config.dataDir });
  // Checked before anything is opened: a bad model endpoint variable is a ConfigError naming it.
  const embedder = embedderFromEnv(env);
  const expander = expanderFromEnv(env);
  const connections = await resolveConnections(options);
  const closers: Array<() => Promise<void>> = [() => connections.release()];
  try {
    let eventStore: EventStore;
    if (connections.eventStore.kind === 'postgres') {
      eventStore = await openPostgresEventStore(connections.eventStore.url);
    } else {
      // Loaded only when configured: the gRPC client is heavy to import.
      const { openEsdbEventStore } = await import('../infrastructure/event-store/esdb/esdb-event-store.js');
      eventStore = openEsdbEventStore(connections.eventStore.url, { streamPrefixes: MEMLEDGER_STREAM_PREFIXES });
    }
    closers.unshift(() => eventStore.close());
    if (connections.eventStore.url !== connections.databaseUrl || connections.eventStore.kind !== 'postgres') {
      await migrateToLatest(connections.databaseUrl);
    }
    const keyStore = new PostgresKeyStore({ connectionString: connections.databaseUrl, masterKeys: keyring });
    closers.unshift(() => keyStore.close());
    const vectors = new PostgresVectorStore(connections.databaseUrl);
    closers.unshift(() => vectors.close());
    const clock = options.clock ?? (() => new Date());
    return {
      eventStore,
      keyStore,
      subjects: new SubjectRepository(eventStore),
      clock,
      writePolicies: new WritePolicies(eventStore, clock),
      retrieval: { vectors, ...(embedder ? { embedder } : {}), ...(expander ? { expander } : {}) },
      databaseUrl: connections.databaseUrl,
      revive: () => connections.revive(),
      // In order (stores, then the embedded server), every step even when one fails: a store left open
      // would meet the server's shutdown.
      async close() {
        const failures: unknown[] = [];
        for (const close of closers) await close().catch((error: unknown) => failures.push(error));
        if (failures.length > 0) throw failures[0];
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
