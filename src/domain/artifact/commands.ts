// Commands on an artifact stream. Ids and the time are inputs, so decide is
// a pure function of (state, command); the sealing of the output and the
// gate's verdict happen before (the command carries their results).
import type { GateResult } from '../consolidation/gate.js';
import type { ArtifactEventOf } from '../events/artifact-events.js';
import type { FenceFailure } from '../events/alias.js';
import type { Manifest } from '../events/manifest.js';
import type { Sealed } from '../events/sealed.js';
import type { Instant } from '../values/instant.js';

type Generated = ArtifactEventOf<'ArtifactGenerated'>['data'];

export type ArtifactCommand =
  /** A generated output and the gate's verdict on it: ArtifactGenerated, then GatePassed or GateFailed. */
  | {
      readonly type: 'RecordArtifact';
      readonly artifactId: string;
      readonly manifest: Manifest;
      readonly output: Sealed;
      readonly outputHash: string;
      readonly record: Generated['record'];
      readonly statements?: Sealed;
      readonly gate: GateResult;
      readonly now: Instant;
    }
  /** The summarizer failed for this manifest. */
  | {
      readonly type: 'RecordGenerationFailure';
      readonly artifactId: string;
      readonly manifest: Manifest;
      readonly error: { readonly code: string; readonly message: string };
      readonly now: Instant;
    }
  /** The alias switch to this artifact was refused by a fence. */
  | {
      readonly type: 'RejectSwitch';
      readonly artifactId: string;
      readonly reason: FenceFailure;
      readonly message: string;
      readonly now: Instant;
    }
  /** Shadow mode: a reviewer approves a gated artifact of the tenant (and subject, when given). */
  | {
      readonly type: 'ApproveArtifact';
      readonly artifactId: string;
      readonly tenant: string;
      readonly subject?: string;
      readonly approvedBy?: string;
      readonly now: Instant;
    };

export type ArtifactCommandOf<T extends ArtifactCommand['type']> = Extract<ArtifactCommand, { type: T }>;
