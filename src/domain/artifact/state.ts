// The folded state of one artifact stream `artifact-{artifactId}`: what it
// was generated from and into, the gate's verdict, and what became of it.
import type { ArtifactEvent, ArtifactEventOf } from '../events/artifact-events.js';
import type { Manifest } from '../events/manifest.js';
import { unhandled } from '../decider/decider.js';

type Data<T extends ArtifactEvent['type']> = ArtifactEventOf<T>['data'];

export interface ArtifactState {
  readonly generated?: Data<'ArtifactGenerated'>;
  readonly gatePassed?: Data<'GatePassed'>;
  readonly gateFailed?: Data<'GateFailed'>;
  readonly generationFailed?: Data<'GenerationFailed'>;
  /** The first rejection: a later one (another publisher's) changes nothing. */
  readonly rejected?: Data<'ConsolidationRejected'>;
  /** The first approval. */
  readonly approved?: Data<'ArtifactApproved'>;
}

export function initialArtifactState(): ArtifactState {
  return {};
}

export function evolveArtifact(state: ArtifactState, event: ArtifactEvent): ArtifactState {
  switch (event.type) {
    case 'ArtifactGenerated':
      return { ...state, generated: event.data };
    case 'GatePassed':
      return { ...state, gatePassed: event.data };
    case 'GateFailed':
      return { ...state, gateFailed: event.data };
    case 'GenerationFailed':
      return { ...state, generationFailed: event.data };
    case 'ConsolidationRejected':
      return state.rejected ? state : { ...state, rejected: event.data };
    case 'ArtifactApproved':
      return state.approved ? state : { ...state, approved: event.data };
    default:
      return unhandled(event);
  }
}

/** The manifest the artifact was generated (or failed to be generated) for; absent while nothing was written. */
export function manifestOf(state: ArtifactState): Manifest | undefined {
  return state.generated?.manifest ?? state.generationFailed?.manifest;
}
