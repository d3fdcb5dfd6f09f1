// The server's error answers, as it builds them: for Append and Read a gRPC
// status with `exception` trailers (src/EventStore.Core/Services/Transport/
// Grpc/RpcExceptions.cs), which the client's convertToCommandError maps by
// the trailer; for BatchAppend a google.rpc.Status in the response with the
// details packed (…/Grpc/Status.cs), which the client's unpackToCommandError
// maps by the packed type name.
import { Metadata, status } from '@grpc/grpc-js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import type { Status as StatusMessage } from '@eventstore/db-client/generated/status_pb.js';
import { Code, GoogleProtobufAny, GoogleProtobufEmpty, Status } from './protocol.js';
import { streamIdentifier } from './messages.js';

/** What a grpc-js handler passes to its callback or emits as 'error'. */
export interface RpcFailure {
  readonly code: number;
  readonly details: string;
  readonly metadata?: Metadata;
}

function trailers(entries: Record<string, string>): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  return metadata;
}

export const rpc = {
  maxAppendSizeExceeded: (maxAppendSize: number): RpcFailure => ({
    code: status.INVALID_ARGUMENT,
    details: `Maximum Append Size of ${maxAppendSize} Exceeded.`,
    metadata: trailers({ exception: 'maximum-append-size-exceeded', 'maximum-append-size': String(maxAppendSize) }),
  }),
  notLeader: (host: string, port: number): RpcFailure => ({
    code: status.NOT_FOUND,
    details: 'Leader info available',
    metadata: trailers({ exception: 'not-leader', 'leader-endpoint-host': host, 'leader-endpoint-port': String(port) }),
  }),
  accessDenied: (): RpcFailure => ({
    code: status.PERMISSION_DENIED,
    details: 'Access Denied',
    metadata: trailers({ exception: 'access-denied' }),
  }),
  streamDeleted: (stream: string): RpcFailure => ({
    code: status.FAILED_PRECONDITION,
    details: `Event stream '${stream}' is deleted.`,
    metadata: trailers({ exception: 'stream-deleted', 'stream-name': stream }),
  }),
  /** A write's prepare or commit timed out (OperationResult.PrepareTimeout / CommitTimeout / ForwardTimeout). */
  timeout: (): RpcFailure => ({ code: status.ABORTED, details: 'Operation timed out: Commit timeout.' }),
  /** ClientMessage.NotHandled(NotReady): the node is not ready to serve (starting, electing). */
  notReady: (): RpcFailure => ({ code: status.UNAVAILABLE, details: 'Server Is Not Ready' }),
};

function packed(code: number, message: string, details: { serializeBinary(): Uint8Array }, typeName: string): StatusMessage {
  const any = new GoogleProtobufAny();
  any.pack(details.serializeBinary(), typeName);
  const result = new Status();
  result.setCode(code);
  result.setMessage(message);
  result.setDetails(any);
  return result;
}

export const batchStatus = {
  maxAppendSizeExceeded: (maxAppendSize: number): StatusMessage => {
    const details = new sharedPb.MaximumAppendSizeExceeded();
    details.setMaxappendsize(maxAppendSize);
    return packed(Code.INVALID_ARGUMENT, 'MaximumAppendSizeExceeded', details, 'event_store.client.MaximumAppendSizeExceeded');
  },
  accessDenied: (): StatusMessage =>
    packed(Code.PERMISSION_DENIED, 'AccessDenied', new sharedPb.AccessDenied(), 'event_store.client.AccessDenied'),
  streamDeleted: (stream: string): StatusMessage => {
    const details = new sharedPb.StreamDeleted();
    details.setStreamIdentifier(streamIdentifier(stream));
    return packed(Code.NOT_FOUND, 'StreamDeleted', details, 'event_store.client.StreamDeleted');
  },
  timeout: (): StatusMessage => packed(Code.DEADLINE_EXCEEDED, 'Timeout', new sharedPb.Timeout(), 'event_store.client.Timeout'),
  /** NotHandled(NotReady) in BatchAppend: no code, Empty details, so the client only sees an UnknownError with this message. */
  notReady: (): StatusMessage => packed(Code.OK, 'Server Is Not Ready', new GoogleProtobufEmpty(), 'google.protobuf.Empty'),
};
