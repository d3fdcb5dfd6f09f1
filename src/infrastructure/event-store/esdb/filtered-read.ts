// Reads of $all filtered by the server. Client 6.2.1's readAll always sends
// NoFilter (dist/streams/readAll.js), so a sparse reader would fetch the
// whole log to drop most of it; the server has served filtered reads of $all
// since 20.x (Streams.Read → Enumerator.ReadAllForwardsFiltered /
// ReadAllBackwardsFiltered, which page through $all on the server until
// maxCount events match or the log ends). This builds the very request the
// client builds for readAll, with the filter its subscribeToAll sends, and
// runs it through the client's own machinery: GRPCStreamCreator (so a
// NotLeader answer moves the client to the leader) and ReadStream (so
// errors map to the client's error classes).
import type { CallOptions, ClientReadableStream, Metadata } from '@grpc/grpc-js';
import {
  BACKWARDS,
  END,
  START,
  STREAM_NAME,
  type BaseOptions,
  type EventStoreDBClient,
  type Filter,
  type ReadPosition,
} from '@eventstore/db-client';
import { ReadStream } from '@eventstore/db-client/dist/streams/utils/ReadStream.js';
import { convertGrpcEvent } from '@eventstore/db-client/dist/utils/convertGrpcEvent.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type { AllStreamResolvedEvent } from '@eventstore/db-client';
import type { ReadResp } from '@eventstore/db-client/generated/streams_pb.js';

const { ReadReq } = streamsPb;

type AllStreamRecordedEvent = NonNullable<AllStreamResolvedEvent['event']>;
const { StreamsClient } = streamsGrpc;

/** The protected members of the client this uses (dist/Client/index.d.ts). */
interface ClientInternals {
  GRPCStreamCreator(
    client: typeof StreamsClient,
    debugName: string,
    creator: (client: InstanceType<typeof StreamsClient>) => ClientReadableStream<ReadResp>,
  ): () => Promise<ClientReadableStream<ReadResp>>;
  callArguments(options: BaseOptions, callOptions: CallOptions): [Metadata, CallOptions];
}

export interface FilteredReadOptions extends BaseOptions {
  readonly fromPosition: ReadPosition;
  readonly direction: typeof BACKWARDS | 'forwards';
  readonly maxCount: number;
  readonly filter: Filter;
}

function readRequest({ fromPosition, direction, maxCount, filter }: FilteredReadOptions) {
  const all = new ReadReq.Options.AllOptions();
  if (fromPosition === START) all.setStart(new sharedPb.Empty());
  else if (fromPosition === END) all.setEnd(new sharedPb.Empty());
  else {
    const position = new ReadReq.Options.Position();
    position.setCommitPosition(fromPosition.commit.toString(10));
    position.setPreparePosition(fromPosition.prepare.toString(10));
    all.setPosition(position);
  }
  const expression = new ReadReq.Options.FilterOptions.Expression();
  if ('prefixes' in filter) expression.setPrefixList(filter.prefixes);
  else expression.setRegex(filter.regex);
  const filterOptions = new ReadReq.Options.FilterOptions();
  if (filter.filterOn === STREAM_NAME) filterOptions.setStreamIdentifier(expression);
  else filterOptions.setEventType(expression);
  filterOptions.setCount(new sharedPb.Empty());
  filterOptions.setCheckpointintervalmultiplier(1);
  const uuid = new ReadReq.Options.UUIDOption();
  uuid.setString(new sharedPb.Empty());
  const options = new ReadReq.Options();
  options.setAll(all);
  options.setResolveLinks(false);
  options.setCount(String(maxCount));
  options.setUuidOption(uuid);
  options.setFilter(filterOptions);
  options.setReadDirection(direction === BACKWARDS ? ReadReq.Options.ReadDirection.BACKWARDS : ReadReq.Options.ReadDirection.FORWARDS);
  const request = new ReadReq();
  request.setOptions(options);
  return request;
}

/** The matching events, read to the end of the response (a half-read call would keep its stream open). */
export async function readAllFiltered(client: EventStoreDBClient, options: FilteredReadOptions): Promise<AllStreamRecordedEvent[]> {
  const internals = client as unknown as ClientInternals;
  const request = readRequest(options);
  const { credentials, requiresLeader, deadline } = options;
  const base: BaseOptions = {
    ...(credentials ? { credentials } : {}),
    ...(requiresLeader ? { requiresLeader } : {}),
    ...(deadline ? { deadline } : {}),
  };
  const create = internals.GRPCStreamCreator(StreamsClient, 'readAll', (grpc) =>
    grpc.read(request, ...internals.callArguments(base, { deadline: Infinity })),
  );
  const events: AllStreamRecordedEvent[] = [];
  for await (const resolved of new ReadStream<AllStreamResolvedEvent>(
    create,
    convertGrpcEvent,
    {},
  ) as AsyncIterable<AllStreamResolvedEvent>) {
    if (resolved.event) events.push(resolved.event);
  }
  return events;
}
