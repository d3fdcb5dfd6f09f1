// One node of the double: a gRPC server on 127.0.0.1 with the Streams,
// ServerFeatures and Gossip services. A leader reads and writes its log. A
// follower reads from its lagging copy and forwards writes to the leader —
// unless the call carries `requires-leader: true`, which it refuses with
// NotLeader and the leader's address, as ClusterVNodeController's
// HandleAsNonLeader / DenyRequestBecauseNotLeader do (src/EventStore.Core/
// Services/VNode/ClusterVNodeController.cs; the header is
// Constants.Headers.RequiresLeader, read by Streams.*'s GetRequiresLeader).
// The client then reconnects to that address (Client.handleError).
import { Server, ServerCredentials, status, type Metadata } from '@grpc/grpc-js';
import type { BatchAppendReq, ReadReq } from '@eventstore/db-client/generated/streams_pb.js';
import { append, batchAppend, type AppendLimits } from './append-service.js';
import type { InMemoryLog, LogView } from './log.js';
import { GossipService, ServerFeaturesService, StreamsService, SupportedMethod, SupportedMethods } from './protocol.js';
import { read, type ReadMeter } from './read-service.js';
import { rpc } from './statuses.js';

export const STREAMS = 'event_store.client.streams.Streams';
export const SERVER_FEATURES = '/event_store.client.server_features.ServerFeatures/GetSupportedMethods';

/** A call as the node received it. */
export interface RecordedRequest {
  readonly path: string;
  readonly node: 'leader' | 'follower';
  readonly requiresLeader: boolean;
  /** A read's or subscription's server-side filter, if it asked for one. */
  readonly filter?: { readonly on: 'stream' | 'type'; readonly prefixes: readonly string[]; readonly regex: string };
  /** For reads: events the node walked past and events it sent, so far. */
  readonly meter?: ReadMeter;
}

function filterOf(call: unknown): RecordedRequest['filter'] {
  const options = (call as { request?: ReadReq }).request?.getOptions?.();
  const filter = options?.hasFilter() ? options.getFilter() : undefined;
  if (!filter) return undefined;
  const onStream = filter.hasStreamIdentifier();
  const expression = onStream ? filter.getStreamIdentifier() : filter.getEventType();
  return { on: onStream ? 'stream' : 'type', prefixes: expression?.getPrefixList() ?? [], regex: expression?.getRegex() ?? '' };
}

export interface NodeSetup {
  readonly role: 'leader' | 'follower';
  /** Where writes go: the leader's log (a follower forwards to it). */
  readonly log: InMemoryLog;
  /** What reads see: the log itself on the leader, a lagging copy on a follower. */
  readonly reads: LogView;
  readonly limits: AppendLimits;
  readonly serverFeatures: 'advertise-batch-append' | 'unimplemented';
  /** The leader's address, which a follower names in NotLeader. */
  readonly leader: () => { readonly host: string; readonly port: number };
  readonly record: (request: RecordedRequest) => void;
}

export interface StartedNode {
  readonly port: number;
  close(): void;
}

type Handler = (...args: never[]) => void;

export async function startNode(setup: NodeSetup): Promise<StartedNode> {
  const meters = new WeakMap<object, ReadMeter>();
  const notLeader = () => rpc.notLeader(setup.leader().host, setup.leader().port);
  // Every handler is recorded, so a test can state what the client puts on the wire.
  const handle = <H extends Handler>(path: string, handler: H, refuse?: H): H =>
    ((...args: Parameters<H>) => {
      const call = args[0] as unknown as { metadata: Metadata };
      const requiresLeader = call.metadata.get('requires-leader')[0] === 'true';
      const filter = filterOf(call);
      const meter = path.endsWith('/Read') ? { scanned: 0, served: 0 } : undefined;
      if (meter) meters.set(call, meter);
      setup.record({ path, node: setup.role, requiresLeader, ...(filter ? { filter } : {}), ...(meter ? { meter } : {}) });
      if (refuse && requiresLeader && setup.role === 'follower') refuse(...args);
      else handler(...args);
    }) as H;

  const server = new Server();
  server.addService(StreamsService, {
    read: handle(
      `/${STREAMS}/Read`,
      read(setup.reads, (call) => meters.get(call) ?? { scanned: 0, served: 0 }, setup.limits.faults),
      (call) => call.emit('error', notLeader()),
    ),
    append: handle(`/${STREAMS}/Append`, append(setup.log, setup.limits), (call, callback) => {
      // Refused once the write is handed on, i.e. after the whole request.
      call.on('data', () => undefined);
      call.on('error', () => undefined);
      call.on('end', () => callback(notLeader()));
    }),
    batchAppend: handle(`/${STREAMS}/BatchAppend`, batchAppend(setup.log, setup.limits), (call) => {
      // The first write's NotHandled ends the whole call with NotLeader (Streams.BatchAppend.cs, ConvertMessage).
      call.on('data', (request: BatchAppendReq) => {
        if (request.getIsFinal()) call.emit('error', notLeader());
      });
      call.on('error', () => undefined);
    }),
    delete: handle(`/${STREAMS}/Delete`, unimplementedUnary),
    tombstone: handle(`/${STREAMS}/Tombstone`, unimplementedUnary),
  });
  server.addService(ServerFeaturesService, {
    getSupportedMethods: handle(SERVER_FEATURES, setup.serverFeatures === 'advertise-batch-append' ? supportedMethods : unimplementedUnary),
  });
  server.addService(GossipService, {
    read: handle('/event_store.client.gossip.Gossip/Read', unimplementedUnary),
  });

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  // Clients keep their channel open; a graceful shutdown would wait for them.
  return { port, close: () => server.forceShutdown() };
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
