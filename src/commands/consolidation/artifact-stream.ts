// Artifact streams `artifact-{artifactId}`: commands through the one command
// loop with the artifact decider (src/domain/artifact), and the stream read
// back as a record (manifest, output envelope, gate verdict, failures,
// rejection, approval). Nothing in one is ever deleted or rewritten.
import type { ArtifactCommand } from '../../domain/artifact/commands.js';
import { artifactDecider } from '../../domain/artifact/decider.js';
import type { ArtifactState } from '../../domain/artifact/state.js';
import { isArtifactEvent } from '../../domain/events/catalog.js';
import type { ArtifactEvent } from '../../domain/events/artifact-events.js';
import { artifactStreamName } from '../../domain/events/stream-names.js';
import type { Result } from '../../domain/result/result.js';
import type { Instant } from '../../domain/values/instant.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { handleCommand, type CommandEffect, type CommandEnvelope } from '../stream/handle-command.js';
import type { StreamDeps } from '../stream/handle-commands.js';
import type { StreamKind } from '../stream/stream-kind.js';
import { StreamRepository } from '../stream/stream-repository.js';

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
function artifacts(store: EventStore): StreamRepository<ArtifactState, ArtifactCommand, ArtifactEvent> {
  return new StreamRepository(artifactStream, store, 0);
}

export async function readArtifact(store: EventStore, artifactId: string): Promise<ArtifactRecord> {
  const loaded = await artifacts(store).load(artifactStreamName(artifactId));
  return { ...loaded.state, artifactId, stream: loaded.stream, revision: loaded.revision };
}

export function executeArtifactCommand(
  deps: StreamDeps,
  envelope: Omit<CommandEnvelope, 'stream'> & { readonly artifactId: string },
  build: (now: Instant) => ArtifactCommand,
): Promise<Result<CommandEffect<ArtifactState, never>>> {
  const { artifactId, ...rest } = envelope;
  return handleCommand(artifacts(deps.eventStore), deps, { ...rest, stream: artifactStreamName(artifactId) }, (_loaded, now) => build(now));
}
