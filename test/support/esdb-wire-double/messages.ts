// Conversions between the double's log entries and the wire messages.
import type { ReadResp as ReadRespMessage } from '@eventstore/db-client/generated/streams_pb.js';
import type { UUID as UUIDMessage } from '@eventstore/db-client/generated/shared_pb.js';
import type { LoggedEvent } from './log.js';
import { Empty, ReadResp, StreamIdentifier, UUID } from './protocol.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A request the double refuses, answered with a gRPC status. */
export class BadRequest extends Error {}

/** The server parses ids as GUIDs and hands them back in canonical lower case. */
export function parseEventId(uuid: UUIDMessage | undefined): string {
  if (!uuid?.hasString()) throw new BadRequest('event id must be sent as a string UUID');
  const id = uuid.getString();
  if (!UUID_PATTERN.test(id)) throw new BadRequest(`event id is not a UUID: ${id}`);
  return id.toLowerCase();
}

export function streamName(identifier: { getStreamName_asU8(): Uint8Array } | undefined): string {
  if (!identifier) throw new BadRequest('stream identifier missing');
  return Buffer.from(identifier.getStreamName_asU8()).toString('utf8');
}

export function streamIdentifier(name: string) {
  const identifier = new StreamIdentifier();
  identifier.setStreamName(Uint8Array.from(Buffer.from(name, 'utf8')));
  return identifier;
}

// Stored events never change: build each response once (subscribers and pagers re-read them).
const responses = [new WeakMap<LoggedEvent, ReadRespMessage>(), new WeakMap<LoggedEvent, ReadRespMessage>()] as const;

export function eventResponse(event: LoggedEvent, withCommitPosition: boolean): ReadRespMessage {
  const cache = responses[withCommitPosition ? 1 : 0];
  let response = cache.get(event);
  if (!response) cache.set(event, (response = buildEventResponse(event, withCommitPosition)));
  return response;
}

function buildEventResponse(event: LoggedEvent, withCommitPosition: boolean): ReadRespMessage {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  const id = new UUID();
  id.setString(event.id);
  recorded.setId(id);
  recorded.setStreamIdentifier(streamIdentifier(event.stream));
  recorded.setStreamRevision(String(event.revision));
  // Stream reads carry the log position too, as servers have since 22.x.
  recorded.setCommitPosition(String(event.commit));
  recorded.setPreparePosition(String(event.prepare));
  const metadata = recorded.getMetadataMap();
  metadata.set('type', event.type);
  metadata.set('content-type', event.contentType);
  metadata.set('created', String(event.created));
  recorded.setCustomMetadata(event.customMetadata);
  recorded.setData(event.data);
  const readEvent = new ReadResp.ReadEvent();
  readEvent.setEvent(recorded);
  if (withCommitPosition) readEvent.setCommitPosition(String(event.commit));
  else readEvent.setNoPosition(new Empty());
  const response = new ReadResp();
  response.setEvent(readEvent);
  return response;
}

export function comparePosition(event: LoggedEvent, commit: bigint, prepare: bigint): number {
  if (event.commit !== commit) return event.commit < commit ? -1 : 1;
  if (event.prepare !== prepare) return event.prepare < prepare ? -1 : 1;
  return 0;
}
