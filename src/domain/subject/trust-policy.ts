// Trust overrides and taint escalation. Both change how existing entries are
// judged, so both advance inputEpoch; neither settles an open conflict.
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult } from './decision.js';
import type { SubjectState } from './state.js';

export function decideChangeTrust(state: SubjectState, command: SubjectCommandOf<'ChangeTrust'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  const previous = state.trustOverrides.get(command.sourceRef);
  if (previous === command.level) return accept([]);
  return accept([
    {
      type: 'TrustChanged',
      data: {
        sourceRef: command.sourceRef,
        level: command.level,
        ...(previous !== undefined ? { previousLevel: previous } : {}),
        ...(command.reason ? { reason: command.reason } : {}),
        changedAt: command.now,
      },
    },
  ]);
}

/** Adds ref patterns and/or source types to the taint policy; what is already tainted is not repeated, and nothing new appends nothing. */
export function decideEscalateTaint(state: SubjectState, command: SubjectCommandOf<'EscalateTaintPolicy'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  if (command.refPatterns.length === 0 && command.sourceTypes.length === 0) {
    return reject('nothing_to_escalate', 'give at least one ref pattern or source type to taint', 'refPatterns');
  }
  const policy = state.taintPolicy;
  const refPatterns = [...new Set(command.refPatterns)].filter((p) => !policy.refPatterns.includes(p)).sort();
  const sourceTypes = [...new Set(command.sourceTypes)].filter((t) => !policy.sourceTypes.includes(t)).sort();
  if (refPatterns.length === 0 && sourceTypes.length === 0) return accept([]);
  return accept([
    {
      type: 'TaintPolicyEscalated',
      data: { policyVersion: policy.version + 1, refPatterns, sourceTypes, reason: command.reason, escalatedAt: command.now },
    },
  ]);
}
