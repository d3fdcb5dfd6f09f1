// The artifact stream's decider.
import type { Decider } from '../decider/decider.js';
import type { ArtifactEvent } from '../events/artifact-events.js';
import type { ArtifactCommand } from './commands.js';
import { decideArtifact } from './decide.js';
import { evolveArtifact, initialArtifactState, type ArtifactState } from './state.js';

export const artifactDecider: Decider<ArtifactState, ArtifactCommand, ArtifactEvent> = {
  initialState: initialArtifactState,
  evolve: evolveArtifact,
  decide: decideArtifact,
};
