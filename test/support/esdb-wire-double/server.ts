// A wire-level test double of EventStoreDB: a gRPC server on 127.0.0.1 that
// serves the Streams service from the client's own generated definitions,
// backed by an in-memory log. It proves the adapter's wiring — requests the
// client builds, responses it parses, errors it maps — not the server's
// semantics; only a real EventStoreDB (test/contract/esdb.test.ts) does that.
import { randomUUID } from 'node:crypto';
import { Faults } from './faults.js';
import { appendForeignEvents } from './foreign-events.js';
import { InMemoryLog, type ServerClock } from './log.js';
import { startNode, type RecordedRequest, type StartedNode } from './node.js';
import { LaggingReplica } from './replica.js';

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
  /**
   * The node the connection string names: `leader` (default; a single node
   * leads itself) or `follower`, a node of a cluster whose leader runs
   * beside it: reads without `requires-leader` come from its lagging copy,
   * writes are forwarded, leader-required calls answer NotLeader.
   */
  readonly connectTo?: 'leader' | 'follower';
  /** How long a commit takes to show on the follower (default 200 ms). */
  readonly replicationLagMs?: number;
  /** The leader's clock, read for every event written (default: the machine's, sub-millisecond). */
  readonly clock?: ServerClock;
  /** Other applications' events in the log from the start (default 3; a shared cluster's $all holds them). */
  readonly foreignEvents?: number;
  /** The committed-events cache `any` retries are checked against, in bytes (default 8 MiB, as the server's; log.ts). */
  readonly idCacheBytes?: number;
}

const DEFAULT_MAX_APPEND_SIZE = 1024 * 1024;
const DEFAULT_REPLICATION_LAG_MS = 200;

export interface EsdbWireDouble {
  /** An insecure connection string naming one node (the leader, or the follower). */
  readonly url: string;
  /** The leader's log. */
  readonly log: InMemoryLog;
  /** gRPC method paths in the order the client called them (any node). */
  readonly calls: readonly string[];
  /** The same calls with the node that took them and their `requires-leader` header. */
  readonly requests: readonly RecordedRequest[];
  /** Failures the next appends and reads meet (faults.ts). */
  readonly faults: Faults;
  /** Appends other applications' events (binary, JSON without memledger's metadata). */
  appendForeign(count: number): void;
  close(): Promise<void>;
}

export async function startEsdbWireDouble(options: EsdbWireDoubleOptions): Promise<EsdbWireDouble> {
  const log = new InMemoryLog(options.clock, options.idCacheBytes);
  seedSystemEvents(log);
  appendForeignEvents(log, options.foreignEvents ?? 3);
  const requests: RecordedRequest[] = [];
  const calls: string[] = [];
  const faults = new Faults();
  const limits = { maxAppendSize: options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE, faults };
  const common = {
    log,
    limits,
    serverFeatures: options.serverFeatures,
    record: (request: RecordedRequest) => {
      requests.push(request);
      calls.push(request.path);
    },
  };
  let leaderPort = 0;
  const leader: StartedNode = await startNode({
    ...common,
    role: 'leader',
    reads: log,
    leader: () => ({ host: '127.0.0.1', port: leaderPort }),
  });
  leaderPort = leader.port;
  const nodes = [leader];
  let replica: LaggingReplica | undefined;
  if (options.connectTo === 'follower') {
    replica = new LaggingReplica(log, options.replicationLagMs ?? DEFAULT_REPLICATION_LAG_MS);
    nodes.push(await startNode({ ...common, role: 'follower', reads: replica, leader: () => ({ host: '127.0.0.1', port: leaderPort }) }));
  }
  return {
    // A generous deadline (the client's default is 10 s): the double shares one process, and on a loaded machine one core share, with its clients.
    url: `esdb://127.0.0.1:${nodes[nodes.length - 1]!.port}?tls=false&defaultDeadline=60000`,
    log,
    calls,
    requests,
    faults,
    appendForeign: (count) => appendForeignEvents(log, count),
    close() {
      replica?.stop();
      for (const node of nodes) node.close();
      return Promise.resolve();
    },
  };
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
