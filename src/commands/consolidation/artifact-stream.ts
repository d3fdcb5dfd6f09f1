// An artifact stream `artifact-{artifactId}` read back: its manifest, output
// envelope, gate verdict, failures, rejection and approval. Nothing in it is
// ever deleted or rewritten; events are only appended.
import { randomUUID } from 'node:crypto';
import type { ArtifactEvent, ArtifactEventOf } from '../../domain/events/artifact-events.js';
import { encodeEvent, decodeStoredEvent } from '../../domain/events/decode.js';
import { artifactStreamName } from '../../domain/events/stream-names.js';
import type { EventStore, ExpectedRevision, NewEvent } from '../../infrastructure/event-store/port.js';

type Data<T extends ArtifactEvent['type']> = ArtifactEventOf<T>['data'];

export interface ArtifactRecord {
  readonly artifactId: string;
  readonly stream: string;
  /** Revision of the last event; -1 when the stream does not exist. */
  readonly revision: number;
  readonly generated?: Data<'ArtifactGenerated'>;
  readonly gatePassed?: Data<'GatePassed'>;
  readonly gateFailed?: Data<'GateFailed'>;
  readonly generationFailed?: Data<'GenerationFailed'>;
  readonly rejected?: Data<'ConsolidationRejected'>;
  readonly approved?: Data<'ArtifactApproved'>;
}

export async function readArtifact(store: EventStore, artifactId: string): Promise<ArtifactRecord> {
  const stream = artifactStreamName(artifactId);
  const stored = await store.readStream(stream);
  const record: { -readonly [K in keyof ArtifactRecord]: ArtifactRecord[K] } = {
    artifactId,
    stream,
    revision: stored.at(-1)?.streamRevision ?? -1,
  };
  for (const s of stored) {
    const event = decodeStoredEvent(s);
    switch (event.type) {
      case 'ArtifactGenerated':
        record.generated = event.data;
        break;
      case 'GatePassed':
        record.gatePassed = event.data;
        break;
      case 'GateFailed':
        record.gateFailed = event.data;
        break;
      case 'GenerationFailed':
        record.generationFailed = event.data;
        break;
      case 'ConsolidationRejected':
        record.rejected ??= event.data;
        break;
      case 'ArtifactApproved':
        record.approved ??= event.data;
        break;
      default:
        break;
    }
  }
  return record;
}

export interface ArtifactOrigin {
  readonly commandId: string;
  readonly actor?: string;
  readonly correlationId?: string;
}

/** Appends to an artifact stream. Event ids are fresh: two writers racing for a stream must not pass as one idempotent retry. */
export async function appendArtifactEvents(
  store: EventStore,
  artifactId: string,
  events: readonly ArtifactEvent[],
  origin: ArtifactOrigin,
  expectedRevision: ExpectedRevision,
): Promise<void> {
  const batch: NewEvent[] = events.map((event) => {
    const encoded = encodeEvent(event);
    return {
      id: randomUUID(),
      type: encoded.type,
      data: encoded.data,
      metadata: {
        schemaVersion: encoded.schemaVersion,
        causationId: origin.commandId,
        ...(origin.correlationId ? { correlationId: origin.correlationId } : {}),
        ...(origin.actor ? { actor: origin.actor } : {}),
      },
    };
  });
  await store.append(artifactStreamName(artifactId), batch, { expectedRevision });
}
