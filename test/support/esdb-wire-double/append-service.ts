// Streams.Append (client streaming: options, then one message per event) and
// Streams.BatchAppend (bidirectional, correlated chunks; what the client uses
// once ServerFeatures advertises it, as 21.10+ servers do).
import { status, type ServerDuplexStream, type ServerReadableStream, type sendUnaryData } from '@grpc/grpc-js';
import type {
  AppendReq as AppendReqMessage,
  AppendResp as AppendRespMessage,
  BatchAppendReq as BatchAppendReqMessage,
  BatchAppendResp as BatchAppendRespMessage,
} from '@eventstore/db-client/generated/streams_pb.js';
import type { CommitOutcome, Expected, InMemoryLog, ProposedEvent } from './log.js';
import { BadRequest, parseEventId, streamIdentifier, streamName } from './messages.js';
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

export function append(log: InMemoryLog) {
  return (call: ServerReadableStream<AppendReqMessage, AppendRespMessage>, callback: sendUnaryData<AppendRespMessage>) => {
    let options: AppendReqMessage.Options | undefined;
    const proposed: ProposedEvent[] = [];
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      callback({ code: status.INVALID_ARGUMENT, details: error instanceof Error ? error.message : String(error) });
    };
    call.on('data', (request: AppendReqMessage) => {
      if (failed) return;
      try {
        if (request.hasOptions()) {
          if (options) throw new BadRequest('options sent twice');
          options = request.getOptions();
        } else if (request.hasProposedMessage()) {
          if (!options) throw new BadRequest('the first append message must carry the options');
          proposed.push(proposedEvent(request.getProposedMessage()!));
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
        callback(null, appendResponse(log.commit(stream, expected, proposed), expected));
      } catch (error) {
        fail(error);
      }
    });
  };
}

function appendResponse(outcome: CommitOutcome, expected: Expected): AppendRespMessage {
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

interface PendingBatch {
  readonly options: BatchAppendReqMessage.Options;
  readonly proposed: ProposedEvent[];
}

export function batchAppend(log: InMemoryLog) {
  return (call: ServerDuplexStream<BatchAppendReqMessage, BatchAppendRespMessage>) => {
    const pending = new Map<string, PendingBatch>();
    call.on('data', (request: BatchAppendReqMessage) => {
      const correlationId = request.getCorrelationId();
      const key = correlationId?.getString() ?? '';
      let batch = pending.get(key);
      try {
        if (!batch) {
          const options = request.getOptions();
          if (!options) throw new BadRequest('the first chunk of a batch must carry the options');
          batch = { options, proposed: [] };
          pending.set(key, batch);
        }
        for (const message of request.getProposedMessagesList()) batch.proposed.push(proposedEvent(message));
        if (!request.getIsFinal()) return;
        pending.delete(key);
        const stream = streamName(batch.options.getStreamIdentifier());
        const expected = expectedOf(batch.options);
        call.write(batchAppendResponse(key, stream, expected, log.commit(stream, expected, batch.proposed)));
      } catch (error) {
        pending.delete(key);
        const failure = new Status();
        failure.setCode(Code.INVALID_ARGUMENT);
        failure.setMessage(error instanceof Error ? error.message : String(error));
        const response = new BatchAppendResp();
        response.setCorrelationId(uuid(key));
        response.setStreamIdentifier(streamIdentifier(batch ? streamName(batch.options.getStreamIdentifier()) : ''));
        response.setError(failure);
        call.write(response);
      }
    });
    call.on('error', () => undefined);
    call.on('end', () => call.end());
  };
}

function uuid(value: string) {
  const id = new UUID();
  id.setString(value);
  return id;
}

function batchAppendResponse(correlationId: string, stream: string, expected: Expected, outcome: CommitOutcome): BatchAppendRespMessage {
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
    failure.setCode(Code.FAILED_PRECONDITION);
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
