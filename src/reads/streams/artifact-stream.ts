// Artifact streams `artifact-{artifactId}` folded with the artifact decider
// (src/domain/artifact) and read back as a record (manifest, output envelope,
// gate verdict, failures, rejection, approval). Nothing in one is ever
// deleted or rewritten.
import type { ArtifactCommand } from '../../domain/artifact/commands.js';
import { artifactDecider } from '../../domain/artifact/decider.js';
import type { ArtifactState } from '../../domain/artifact/state.js';
import { isArtifactEvent } from '../../domain/events/catalog.js';
import type { ArtifactEvent } from '../../domain/events/artifact-events.js';
import { artifactStreamName } from '../../domain/events/stream-names.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { StreamKind } from './stream-kind.js';
import { StreamRepository } from './stream-repository.js';

export const artifactStream: StreamKind<ArtifactState, ArtifactCommand, ArtifactEvent> = {
  decider: artifactDecider,
  owns: isArtifactEvent,
  // Two workers preparing the same snapshot must not pass as one idempotent retry: the second takes the first's artifact.
  eventIds: 'fresh',
};

export interface ArtifactRecord extends ArtifactState {
  readonly artifactId: string;
  readonly stream: string;
  /** Revision of the last event; -1 when the stream does not exist. */
  readonly revision: number;
}

/** Artifact streams hold a handful of events and are folded from the start each time. */
export function artifactStreams(store: EventStore): StreamRepository<ArtifactState, ArtifactCommand, ArtifactEvent> {
  return new StreamRepository(artifactStream, store, 0);
}

export async function readArtifact(store: EventStore, artifactId: string): Promise<ArtifactRecord> {
  const loaded = await artifactStreams(store).load(artifactStreamName(artifactId));
  return { ...loaded.state, artifactId, stream: loaded.stream, revision: loaded.revision };
}
