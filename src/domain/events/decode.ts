// Reading stored events: upcast to the current version, then validate.
// A stored event that does not decode is a typed error naming the field,
// never a half-typed value.
import { CURRENT_SCHEMA_VERSIONS, EVENT_SCHEMAS, isEventType, type DomainEvent, type EventType } from './catalog.js';
import { findLoneSurrogate, ILL_FORMED_REASON } from '../validation/well-formed.js';
import { upcasterFor } from './upcasters.js';

export class EventDecodingError extends Error {
  override readonly name: string = 'EventDecodingError';
  constructor(
    readonly eventType: string,
    readonly schemaVersion: number,
    /** Dotted path inside the event data ('' for the event as a whole). */
    readonly field: string,
    readonly reason: string,
  ) {
    super(`cannot decode ${eventType} v${schemaVersion}${field ? ` at ${field}` : ''}: ${reason}`);
  }
}

export type EventDecoding = { ok: true; event: DomainEvent } | { ok: false; error: EventDecodingError };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function decodeEvent(type: string, data: unknown, schemaVersion: number): EventDecoding {
  const fail = (field: string, reason: string): EventDecoding => ({
    ok: false,
    error: new EventDecodingError(type, schemaVersion, field, reason),
  });
  if (!isEventType(type)) return fail('', 'unknown event type');
  const current = CURRENT_SCHEMA_VERSIONS[type];
  if (!Number.isInteger(schemaVersion) || schemaVersion < 1) return fail('', 'schemaVersion must be a positive whole number');
  if (schemaVersion > current) return fail('', `schemaVersion is newer than this code reads (v${current})`);
  if (!isRecord(data)) return fail('', 'data must be an object');
  let shaped: Record<string, unknown> = data;
  for (let version = schemaVersion; version < current; version++) {
    const upcast = upcasterFor(type, version);
    if (!upcast) return fail('', `no upcaster from v${version} to v${version + 1}`);
    shaped = upcast(shaped);
  }
  const illFormed = findLoneSurrogate(shaped);
  if (illFormed) return fail(illFormed.map(String).join('.'), ILL_FORMED_REASON);
  const parsed = EVENT_SCHEMAS[type].safeParse(shaped);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? [...issue.path, ...(issue.code === 'unrecognized_keys' ? [issue.keys[0] ?? ''] : [])] : [];
    const reason = issue?.code === 'unrecognized_keys' ? 'is not a known field' : (issue?.message ?? 'is invalid');
    return fail(path.map(String).join('.'), reason);
  }
  return { ok: true, event: { type, data: parsed.data } as DomainEvent };
}

/** As decodeEvent, throwing EventDecodingError. */
export function decodeEventOrThrow(type: string, data: unknown, schemaVersion: number): DomainEvent {
  const decoded = decodeEvent(type, data, schemaVersion);
  if (!decoded.ok) throw decoded.error;
  return decoded.event;
}

/**
 * A stored event that does not decode, with where it sits: the stream it
 * belongs to cannot be read by this code (the log is immutable, so every
 * reader of that stream meets it). Commands and reads of the stream refuse
 * with it; a projection records it as a fault and goes on.
 */
export class UndecodableStoredEvent extends EventDecodingError {
  override readonly name = 'UndecodableStoredEvent';
  readonly code = 'undecodable_event';
  constructor(
    readonly stream: string,
    readonly streamRevision: number,
    readonly eventId: string,
    cause: EventDecodingError,
  ) {
    super(cause.eventType, cause.schemaVersion, cause.field, cause.reason);
    this.message = `${stream} revision ${streamRevision} (event ${eventId}): ${cause.message}`;
  }

  get details(): { stream: string; streamRevision: number; eventId: string } {
    return { stream: this.stream, streamRevision: this.streamRevision, eventId: this.eventId };
  }
}

interface Stored {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: { readonly schemaVersion: number };
}

/** Decodes an event as the store returns it; one that does not decode throws UndecodableStoredEvent when the event says where it is. */
export function decodeStoredEvent(
  stored: Stored & { readonly id?: string; readonly stream?: string; readonly streamRevision?: number },
): DomainEvent {
  const decoded = decodeEvent(stored.type, stored.data, stored.metadata.schemaVersion);
  if (decoded.ok) return decoded.event;
  const { id, stream, streamRevision } = stored;
  if (id === undefined || stream === undefined || streamRevision === undefined) throw decoded.error;
  throw new UndecodableStoredEvent(stream, streamRevision, id, decoded.error);
}

/** The parts of a store event for a domain event: validated data and the current schema version (ids and other metadata are the caller's). */
export function encodeEvent<E extends DomainEvent>(event: E): { type: E['type']; data: E['data']; schemaVersion: number } {
  const type: EventType = event.type;
  const parsed = EVENT_SCHEMAS[type].safeParse(event.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EventDecodingError(
      type,
      CURRENT_SCHEMA_VERSIONS[type],
      issue ? issue.path.map(String).join('.') : '',
      issue?.message ?? 'is invalid',
    );
  }
  return { type: event.type, data: parsed.data, schemaVersion: CURRENT_SCHEMA_VERSIONS[type] };
}
