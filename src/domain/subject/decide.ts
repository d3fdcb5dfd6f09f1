// decide: a pure function of (state, command) — the same inputs always give
// the same events, which the handler's idempotency relies on.
import { unhandled } from '../decider/decider.js';
import { decideSwitchAlias } from './alias-fence.js';
import type { SubjectCommand } from './commands.js';
import { decideResolveConflict } from './conflict-resolution.js';
import { decideRestore, decideSweepLifecycle } from './demotion.js';
import type { DecideResult } from './decision.js';
import { decideEraseMemories, decideEraseSubject, decideExpireByRetention, decideIssueReceipt } from './erasure.js';
import { decideExpire, decideForgetMemory, decideForgetSubject, decideRetract } from './lifecycle.js';
import { decideExpireProposals, decidePropose, decideRejectProposal } from './proposals.js';
import { decideFeedback } from './feedback.js';
import { decidePromote } from './promotion.js';
import type { SubjectState } from './state.js';
import { decideChangeTrust, decideEscalateTaint } from './trust-policy.js';
import { decideRecord, decideSupersede } from './write-decision.js';

export function decide(state: SubjectState, command: SubjectCommand): DecideResult {
  switch (command.type) {
    case 'RecordMemory':
      return decideRecord(state, command);
    case 'SupersedeMemory':
      return decideSupersede(state, command);
    case 'RetractMemory':
      return decideRetract(state, command);
    case 'ResolveConflict':
      return decideResolveConflict(state, command);
    case 'ChangeTrust':
      return decideChangeTrust(state, command);
    case 'EscalateTaintPolicy':
      return decideEscalateTaint(state, command);
    case 'ExpireMemories':
      return decideExpire(state, command);
    case 'ForgetMemory':
      return decideForgetMemory(state, command);
    case 'ForgetSubject':
      return decideForgetSubject(state, command);
    case 'EraseMemories':
      return decideEraseMemories(state, command);
    case 'EraseSubject':
      return decideEraseSubject(state, command);
    case 'IssueDeletionReceipt':
      return decideIssueReceipt(state, command);
    case 'ExpireByRetention':
      return decideExpireByRetention(state, command);
    case 'SwitchSummaryAlias':
      return decideSwitchAlias(state, command);
    case 'ProposeMemory':
      return decidePropose(state, command);
    case 'RejectProposal':
      return decideRejectProposal(state, command);
    case 'ExpireProposals':
      return decideExpireProposals(state, command);
    case 'SweepLifecycle':
      return decideSweepLifecycle(state, command);
    case 'RestoreMemory':
      return decideRestore(state, command);
    case 'GiveFeedback':
      return decideFeedback(state, command);
    case 'PromoteMemory':
      return decidePromote(state, command);
    default:
      return unhandled(command);
  }
}
