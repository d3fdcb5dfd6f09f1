// Commands on artifact streams, through the one command loop with the
// artifact decider (src/domain/artifact); reading one back is
// src/reads/streams/artifact-stream.ts.
import type { ArtifactCommand } from '../../domain/artifact/commands.js';
import type { ArtifactState } from '../../domain/artifact/state.js';
import { artifactStreamName } from '../../domain/events/stream-names.js';
import type { Result } from '../../domain/result/result.js';
import type { Instant } from '../../domain/values/instant.js';
import { artifactStreams } from '../../reads/streams/artifact-stream.js';
import { handleCommand, type CommandEffect, type CommandEnvelope } from '../stream/handle-command.js';
import type { StreamDeps } from '../stream/handle-commands.js';

export function executeArtifactCommand(
  deps: StreamDeps,
  envelope: Omit<CommandEnvelope, 'stream'> & { readonly artifactId: string },
  build: (now: Instant) => ArtifactCommand,
): Promise<Result<CommandEffect<ArtifactState, never>>> {
  const { artifactId, ...rest } = envelope;
  return handleCommand(artifactStreams(deps.eventStore), deps, { ...rest, stream: artifactStreamName(artifactId) }, (_loaded, now) =>
    build(now),
  );
}
