// decide for an artifact stream. An artifact is written once: the first
// writer of a snapshot's artifact wins and a later one takes it as it is.
// Nothing is ever deleted or rewritten; a rejection or approval is recorded
// once.
import type { Decided } from '../decider/decider.js';
import { unhandled } from '../decider/decider.js';
import type { ArtifactEvent } from '../events/artifact-events.js';
// Messages are stored in clear: within the events' rule for clear text (no control characters, at most 1000 characters).
import { toClearText } from '../events/fields.js';
import { reject } from '../result/result.js';
import type { ArtifactCommand, ArtifactCommandOf } from './commands.js';
import { publishable } from './publishable.js';
import { manifestOf, type ArtifactState } from './state.js';

export function decideArtifact(state: ArtifactState, command: ArtifactCommand): Decided<ArtifactEvent> {
  switch (command.type) {
    case 'RecordArtifact':
      return manifestOf(state) ? accepted([]) : accepted(recordArtifact(command));
    case 'RecordGenerationFailure': {
      if (manifestOf(state)) return accepted([]);
      const { artifactId, manifest, error, now } = command;
      return accepted([
        {
          type: 'GenerationFailed',
          data: { artifactId, manifest, error: { code: error.code, message: toClearText(error.message) }, failedAt: now },
        },
      ]);
    }
    case 'RejectSwitch': {
      if (!state.generated) return reject('artifact_not_found', `artifact ${command.artifactId} does not exist`, 'artifact');
      if (state.rejected) return accepted([]);
      const { artifactId, reason, message, now } = command;
      return accepted([{ type: 'ConsolidationRejected', data: { artifactId, reason, message: toClearText(message), rejectedAt: now } }]);
    }
    case 'ApproveArtifact': {
      const checked = publishable(command.artifactId, state, command);
      if (!checked.ok) return checked;
      if (state.approved || state.rejected) return accepted([]);
      const { artifactId, approvedBy, now } = command;
      return accepted([{ type: 'ArtifactApproved', data: { artifactId, ...(approvedBy ? { approvedBy } : {}), approvedAt: now } }]);
    }
    default:
      return unhandled(command);
  }
}

function recordArtifact(command: ArtifactCommandOf<'RecordArtifact'>): ArtifactEvent[] {
  const { artifactId, manifest, output, outputHash, record, statements, gate, now } = command;
  return [
    {
      type: 'ArtifactGenerated',
      data: { artifactId, manifest, output, outputHash, record, ...(statements ? { statements } : {}), generatedAt: now },
    },
    gate.passed
      ? { type: 'GatePassed', data: { artifactId, mustPreserveCount: gate.mustPreserveCount, checkedAt: now } }
      : {
          type: 'GateFailed',
          data: { artifactId, reasons: gate.reasons.map((r) => ({ ...r, message: toClearText(r.message) })), checkedAt: now },
        },
  ];
}

function accepted(events: readonly ArtifactEvent[]): Decided<ArtifactEvent> {
  return { ok: true, events };
}
