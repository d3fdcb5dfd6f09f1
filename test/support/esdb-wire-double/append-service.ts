// Streams.Append (client streaming: options, then one message per event) and
// Streams.BatchAppend (bidirectional, correlated chunks; what the client uses
// once ServerFeatures advertises it, as 21.10+ servers do). Both refuse a
// write whose events add up to more than the server's MaxAppendSize (1 MiB
// by default), counting each event as Event.SizeOnDisk does — data +
// metadata + 2 x the type's length — while the events arrive
// (src/EventStore.Core/Services/Transport/Grpc/Streams.Append.cs,
// Streams.BatchAppend.cs; src/EventStore.Core/Data/Event.cs).
import { status, type ServerDuplexStream, type ServerReadableStream, type sendUnaryData } from '@grpc/grpc-js';
import type {
  AppendReq as AppendReqMessage,
  AppendResp as AppendRespMessage,
  BatchAppendReq as BatchAppendReqMessage,
  BatchAppendResp as BatchAppendRespMessage,
} from '@eventstore/db-client/generated/streams_pb.js';
import type { CommitOutcome, Expected, InMemoryLog, ProposedEvent } from './log.js';
import { BadRequest, parseEventId, streamIdentifier, streamName } from './messages.js';
import type { Fault, Faults } from './faults.js';
import { batchStatus, rpc, type RpcFailure } from './statuses.js';
import {
  AllStreamPosition,
  AppendResp,
  BatchAppendResp,
  Code,
  Empty,
  GoogleProtobufAny,
  GoogleProtobufEmpty,
  Status,
  UUID,
  WrongExpectedVersion,
} from './protocol.js';

type ProposedMessage = AppendReqMessage.ProposedMessage | BatchAppendReqMessage.ProposedMessage;

export interface AppendLimits {
  /** The server's MaxAppendSize (ClusterVNodeOptions.Database.MaxAppendSize). */
  readonly maxAppendSize: number;
  readonly faults: Faults;
}

/** Event.SizeOnDisk: what counts against MaxAppendSize. */
function sizeOnDisk(event: ProposedEvent): number {
  return event.data.length + event.customMetadata.length + event.type.length * 2;
}

function proposedEvent(message: ProposedMessage): ProposedEvent {
  const metadata = message.getMetadataMap();
  const type = metadata.get('type');
  const contentType = metadata.get('content-type');
  if (!type) throw new BadRequest('required metadata property missing: type');
  if (!contentType) throw new BadRequest('required metadata property missing: content-type');
  return {
    id: parseEventId(message.getId()),
    type,
    contentType,
    data: message.getData_asU8(),
    customMetadata: message.getCustomMetadata_asU8(),
  };
}

function expectedOf(options: AppendReqMessage.Options | BatchAppendReqMessage.Options): Expected {
  if (options.hasAny()) return { kind: 'any' };
  if (options.hasNoStream()) return { kind: 'no_stream' };
  if (options.hasStreamExists()) return { kind: 'stream_exists' };
  const revision =
    'hasRevision' in options ? options.hasRevision() && options.getRevision() : options.hasStreamPosition() && options.getStreamPosition();
  if (revision === false) throw new BadRequest('expected stream revision missing');
  return { kind: 'revision', revision: Number(revision) };
}

export function append(log: InMemoryLog, limits: AppendLimits) {
  return (call: ServerReadableStream<AppendReqMessage, AppendRespMessage>, callback: sendUnaryData<AppendRespMessage>) => {
    let options: AppendReqMessage.Options | undefined;
    const proposed: ProposedEvent[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      callback(
        error instanceof RpcError
          ? error.failure
          : { code: status.INVALID_ARGUMENT, details: error instanceof Error ? error.message : String(error) },
      );
    };
    call.on('data', (request: AppendReqMessage) => {
      if (failed) return;
      try {
        if (request.hasOptions()) {
          if (options) throw new BadRequest('options sent twice');
          options = request.getOptions();
        } else if (request.hasProposedMessage()) {
          if (!options) throw new BadRequest('the first append message must carry the options');
          const event = proposedEvent(request.getProposedMessage()!);
          size += sizeOnDisk(event);
          if (size > limits.maxAppendSize) throw new RpcError(rpc.maxAppendSizeExceeded(limits.maxAppendSize));
          proposed.push(event);
        }
      } catch (error) {
        fail(error);
      }
    });
    // A client that gives up mid-call (deadline, cancel) must not crash the server.
    call.on('error', () => undefined);
    call.on('end', () => {
      if (failed) return;
      try {
        if (!options) throw new BadRequest('append without options');
        const stream = streamName(options.getStreamIdentifier());
        const expected = expectedOf(options);
        const outcome = commitUnlessFaulted(log, limits.faults.takeAppend(), stream, expected, proposed);
        if ('failure' in outcome) callback(rpcFailureOf(outcome.failure, stream));
        else if (outcome.kind === 'not_ready') callback(rpc.timeout());
        else callback(null, appendResponse(outcome, expected));
      } catch (error) {
        fail(error);
      }
    });
  };
}

function appendResponse(outcome: Exclude<CommitOutcome, { kind: 'not_ready' }>, expected: Expected): AppendRespMessage {
  const response = new AppendResp();
  if (outcome.kind === 'wrong_expected_version') {
    const wrong = new AppendResp.WrongExpectedVersion();
    if (outcome.currentRevision < 0) wrong.setCurrentNoStream(new Empty());
    else wrong.setCurrentRevision(String(outcome.currentRevision));
    if (expected.kind === 'any') wrong.setExpectedAny(new Empty());
    else if (expected.kind === 'no_stream') wrong.setExpectedNoStream(new Empty());
    else if (expected.kind === 'stream_exists') wrong.setExpectedStreamExists(new Empty());
    else wrong.setExpectedRevision(String(expected.revision));
    response.setWrongExpectedVersion(wrong);
    return response;
  }
  const success = new AppendResp.Success();
  if (outcome.kind === 'empty') {
    if (outcome.currentRevision < 0) success.setNoStream(new Empty());
    else success.setCurrentRevision(String(outcome.currentRevision));
    success.setNoPosition(new Empty());
  } else {
    success.setCurrentRevision(String(outcome.lastRevision));
    const position = new AppendResp.Position();
    position.setCommitPosition(String(outcome.last.commit));
    position.setPreparePosition(String(outcome.last.prepare));
    success.setPosition(position);
  }
  response.setSuccess(success);
  return response;
}

/** Commits unless a fault says otherwise; a `timeout` that was `written` commits and fails all the same. */
function commitUnlessFaulted(
  log: InMemoryLog,
  fault: Fault | undefined,
  stream: string,
  expected: Expected,
  proposed: readonly ProposedEvent[],
): CommitOutcome | { failure: Fault } {
  if (!fault) return log.commit(stream, expected, proposed);
  if (fault.answer === 'timeout' && fault.written) log.commit(stream, expected, proposed, { inFlightMs: fault.inFlightMs ?? 0 });
  return { failure: fault };
}

function rpcFailureOf(fault: Fault, stream: string): RpcFailure {
  if (fault.answer === 'timeout') return rpc.timeout();
  if (fault.answer === 'not-ready') return rpc.notReady();
  if (fault.answer === 'access-denied') return rpc.accessDenied();
  return rpc.streamDeleted(stream);
}

function batchStatusOf(fault: Fault, stream: string) {
  if (fault.answer === 'timeout') return batchStatus.timeout();
  if (fault.answer === 'not-ready') return batchStatus.notReady();
  if (fault.answer === 'access-denied') return batchStatus.accessDenied();
  return batchStatus.streamDeleted(stream);
}

/** A gRPC status to answer with, as the server's RpcExceptions. */
class RpcError extends Error {
  constructor(readonly failure: RpcFailure) {
    super(failure.details);
  }
}

interface PendingBatch {
  readonly options: BatchAppendReqMessage.Options;
  readonly proposed: ProposedEvent[];
  size: number;
}

export function batchAppend(log: InMemoryLog, limits: AppendLimits) {
  return (call: ServerDuplexStream<BatchAppendReqMessage, BatchAppendRespMessage>) => {
    const pending = new Map<string, PendingBatch>();
    // The server forgets a batch it refused for size; its later chunks find no pending write and are ignored.
    const refused = new Set<string>();
    call.on('data', (request: BatchAppendReqMessage) => {
      const correlationId = request.getCorrelationId();
      const key = correlationId?.getString() ?? '';
      if (refused.has(key)) return;
      let batch = pending.get(key);
      try {
        if (!batch) {
          const options = request.getOptions();
          if (!options) throw new BadRequest('the first chunk of a batch must carry the options');
          batch = { options, proposed: [], size: 0 };
          pending.set(key, batch);
        }
        for (const message of request.getProposedMessagesList()) {
          const event = proposedEvent(message);
          batch.size += sizeOnDisk(event);
          batch.proposed.push(event);
        }
        if (batch.size > limits.maxAppendSize) {
          pending.delete(key);
          refused.add(key);
          call.write(
            batchError(key, streamName(batch.options.getStreamIdentifier()), batchStatus.maxAppendSizeExceeded(limits.maxAppendSize)),
          );
          return;
        }
        if (!request.getIsFinal()) return;
        pending.delete(key);
        const stream = streamName(batch.options.getStreamIdentifier());
        const expected = expectedOf(batch.options);
        const outcome = commitUnlessFaulted(log, limits.faults.takeAppend(), stream, expected, batch.proposed);
        if ('failure' in outcome) call.write(batchError(key, stream, batchStatusOf(outcome.failure, stream)));
        else if (outcome.kind === 'not_ready') call.write(batchError(key, stream, batchStatus.timeout()));
        else call.write(batchAppendResponse(key, stream, expected, outcome));
      } catch (error) {
        pending.delete(key);
        const failure = new Status();
        failure.setCode(Code.INVALID_ARGUMENT);
        failure.setMessage(error instanceof Error ? error.message : String(error));
        call.write(batchError(key, batch ? streamName(batch.options.getStreamIdentifier()) : '', failure));
      }
    });
    call.on('error', () => undefined);
    call.on('end', () => call.end());
  };
}

function batchError(correlationId: string, stream: string, failure: InstanceType<typeof Status>): BatchAppendRespMessage {
  const response = new BatchAppendResp();
  response.setCorrelationId(uuid(correlationId));
  response.setStreamIdentifier(streamIdentifier(stream));
  response.setError(failure);
  return response;
}

function uuid(value: string) {
  const id = new UUID();
  id.setString(value);
  return id;
}

function batchAppendResponse(
  correlationId: string,
  stream: string,
  expected: Expected,
  outcome: Exclude<CommitOutcome, { kind: 'not_ready' }>,
): BatchAppendRespMessage {
  const response = new BatchAppendResp();
  response.setCorrelationId(uuid(correlationId));
  response.setStreamIdentifier(streamIdentifier(stream));
  if (expected.kind === 'any') response.setAny(new GoogleProtobufEmpty());
  else if (expected.kind === 'no_stream') response.setNoStream(new GoogleProtobufEmpty());
  else if (expected.kind === 'stream_exists') response.setStreamExists(new GoogleProtobufEmpty());
  else response.setStreamPosition(String(expected.revision));
  if (outcome.kind === 'wrong_expected_version') {
    // The server packs the details into a google.rpc.Status, which the client unpacks by type name.
    const details = new WrongExpectedVersion();
    if (outcome.currentRevision < 0) details.setCurrentNoStream(new GoogleProtobufEmpty());
    else details.setCurrentStreamRevision(String(outcome.currentRevision));
    if (expected.kind === 'any') details.setExpectedAny(new GoogleProtobufEmpty());
    else if (expected.kind === 'no_stream') details.setExpectedNoStream(new GoogleProtobufEmpty());
    else if (expected.kind === 'stream_exists') details.setExpectedStreamExists(new GoogleProtobufEmpty());
    else details.setExpectedStreamPosition(String(expected.revision));
    const packed = new GoogleProtobufAny();
    packed.pack(details.serializeBinary(), 'event_store.client.WrongExpectedVersion');
    const failure = new Status();
    failure.setCode(Code.ALREADY_EXISTS);
    failure.setMessage(`WrongExpectedVersion on ${stream}`);
    failure.setDetails(packed);
    response.setError(failure);
    return response;
  }
  const success = new BatchAppendResp.Success();
  if (outcome.kind === 'empty') {
    if (outcome.currentRevision < 0) success.setNoStream(new GoogleProtobufEmpty());
    else success.setCurrentRevision(String(outcome.currentRevision));
    success.setNoPosition(new GoogleProtobufEmpty());
  } else {
    success.setCurrentRevision(String(outcome.lastRevision));
    const position = new AllStreamPosition();
    position.setCommitPosition(String(outcome.last.commit));
    position.setPreparePosition(String(outcome.last.prepare));
    success.setPosition(position);
  }
  response.setSuccess(success);
  return response;
}
