// A wire-level test double of EventStoreDB: a gRPC server on 127.0.0.1 that
// serves the Streams service from the client's own generated definitions,
// backed by an in-memory log. It proves the adapter's wiring — requests the
// client builds, responses it parses, errors it maps — not the server's
// semantics; only a real EventStoreDB (test/contract/esdb.test.ts) does that.
import { randomUUID } from 'node:crypto';
import { Server, ServerCredentials, status, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { append, batchAppend } from './append-service.js';
import { InMemoryLog } from './log.js';
import { read } from './read-service.js';
import { GossipService, ServerFeaturesService, StreamsService, SupportedMethod, SupportedMethods } from './protocol.js';

export interface EsdbWireDoubleOptions {
  /**
   * `advertise-batch-append`: ServerFeatures lists the Streams methods with
   * BatchAppend, as servers since 21.10 do, so the client appends through
   * BatchAppend. `unimplemented`: ServerFeatures answers UNIMPLEMENTED, as
   * older servers do, and the client falls back to Append.
   */
  readonly serverFeatures: 'advertise-batch-append' | 'unimplemented';
  /** The server's MaxAppendSize in bytes; default 1 MiB, as 24.10's. */
  readonly maxAppendSize?: number;
}

const DEFAULT_MAX_APPEND_SIZE = 1024 * 1024;

export interface EsdbWireDouble {
  /** An insecure single-node connection string for the client. */
  readonly url: string;
  readonly log: InMemoryLog;
  /** gRPC method paths in the order the client called them. */
  readonly calls: readonly string[];
  close(): Promise<void>;
}

const STREAMS = 'event_store.client.streams.Streams';

export async function startEsdbWireDouble(options: EsdbWireDoubleOptions): Promise<EsdbWireDouble> {
  const log = new InMemoryLog();
  seedSystemEvents(log);
  const calls: string[] = [];
  const limits = { maxAppendSize: options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE };
  // Every handler is recorded, so a test can state what the client puts on the wire.
  const recorded = <H extends (...args: never[]) => void>(path: string, handler: H): H =>
    ((...args: Parameters<H>) => {
      calls.push(path);
      handler(...args);
    }) as H;

  const server = new Server();
  server.addService(StreamsService, {
    read: recorded(`/${STREAMS}/Read`, read(log)),
    append: recorded(`/${STREAMS}/Append`, append(log, limits)),
    batchAppend: recorded(`/${STREAMS}/BatchAppend`, batchAppend(log, limits)),
    delete: recorded(`/${STREAMS}/Delete`, unimplementedUnary),
    tombstone: recorded(`/${STREAMS}/Tombstone`, unimplementedUnary),
  } as UntypedServiceImplementation);
  server.addService(ServerFeaturesService, {
    getSupportedMethods: recorded(
      '/event_store.client.server_features.ServerFeatures/GetSupportedMethods',
      options.serverFeatures === 'advertise-batch-append' ? supportedMethods : unimplementedUnary,
    ),
  } as UntypedServiceImplementation);
  server.addService(GossipService, {
    read: recorded('/event_store.client.gossip.Gossip/Read', unimplementedUnary),
  } as UntypedServiceImplementation);

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    url: `esdb://127.0.0.1:${port}?tls=false`,
    log,
    calls,
    async close() {
      // Clients keep their channel open; a graceful shutdown would wait for them.
      server.forceShutdown();
    },
  };
}

function unimplementedUnary(_call: unknown, callback: (error: { code: number; details: string }) => void): void {
  callback({ code: status.UNIMPLEMENTED, details: 'not implemented by the EventStoreDB wire-level double' });
}

function supportedMethods(_call: unknown, callback: (error: null, value: InstanceType<typeof SupportedMethods>) => void): void {
  const methods = new SupportedMethods();
  methods.setEventStoreServerVersion('24.10.0-wire-double');
  methods.setMethodsList(
    ['read', 'append', 'batchappend'].map((name) => {
      const method = new SupportedMethod();
      method.setServiceName(STREAMS.toLowerCase());
      method.setMethodName(name);
      method.setFeaturesList(name === 'read' ? ['position', 'events'] : []);
      return method;
    }),
  );
  callback(null, methods);
}

/** A fresh server's log is not empty: system events come first (and keep coming); readers must skip them. */
function seedSystemEvents(log: InMemoryLog): void {
  const json = (value: unknown) => Uint8Array.from(Buffer.from(JSON.stringify(value), 'utf8'));
  log.commit('$$$scavenges', { kind: 'any' }, [
    {
      id: randomUUID(),
      type: '$metadata',
      contentType: 'application/json',
      data: json({ $maxAge: 2592000 }),
      customMetadata: new Uint8Array(),
    },
  ]);
  log.commit('$stats-127.0.0.1:2113', { kind: 'any' }, [
    {
      id: randomUUID(),
      type: '$statsCollected',
      contentType: 'application/json',
      data: json({ 'proc-cpu': 1 }),
      customMetadata: new Uint8Array(),
    },
  ]);
}
