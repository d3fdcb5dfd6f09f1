// The composition root: from the environment to a working ledger (event
// store, key store, folded subjects), on the embedded server when nothing is
// configured. The CLI and the HTTP service both start here.
import type { Ledger } from '../commands/ledger.js';
import { SubjectRepository } from '../commands/subject/subject-repository.js';
import { resolveConnections, readConfig, type ResolveOptions } from '../infrastructure/config.js';
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
  close(): Promise<void>;
}

export async function openLedger(options: ResolveOptions & { readonly clock?: () => Date } = {}): Promise<OpenLedger> {
  const env = options.env ?? process.env;
  const config = readConfig(env, options.cwd ?? process.cwd());
  // Checked before anything is opened: a bad model endpoint variable is a ConfigError naming it.
  const embedder = embedderFromEnv(env);
  const expander = expanderFromEnv(env);
  const connections = await resolveConnections(options);
  const closers: Array<() => Promise<void>> = [connections.release];
  try {
    let eventStore: EventStore;
    if (connections.eventStore.kind === 'postgres') {
      eventStore = await openPostgresEventStore(connections.eventStore.url);
    } else {
      // Loaded only when configured: the gRPC client is heavy to import.
      const { openEsdbEventStore } = await import('../infrastructure/event-store/esdb/esdb-event-store.js');
      eventStore = openEsdbEventStore(connections.eventStore.url);
    }
    closers.unshift(() => eventStore.close());
    if (connections.eventStore.url !== connections.databaseUrl || connections.eventStore.kind !== 'postgres') {
      await migrateToLatest(connections.databaseUrl);
    }
    const { keyring } = await loadMasterKeyring({ env, dataDir: config.dataDir });
    const keyStore = new PostgresKeyStore({ connectionString: connections.databaseUrl, masterKeys: keyring });
    closers.unshift(() => keyStore.close());
    const vectors = new PostgresVectorStore(connections.databaseUrl);
    closers.unshift(() => vectors.close());
    return {
      eventStore,
      keyStore,
      subjects: new SubjectRepository(eventStore),
      clock: options.clock ?? (() => new Date()),
      retrieval: { vectors, ...(embedder ? { embedder } : {}), ...(expander ? { expander } : {}) },
      databaseUrl: connections.databaseUrl,
      async close() {
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
