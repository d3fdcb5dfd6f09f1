// One line per event of the subject stream, in the domain's words. Sealed
// fields appear only as the events route returned them (readable, or
// forgotten once their key is gone); the console never opens anything.
import type { SubjectEventType } from '../../../../src/domain/events/subject-events.js';
import type { DecodedEvent, OpenedField, Value } from '../../api/types.js';
import { valueText } from '../../ui/values.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

function opened(field: unknown): string {
  const f = field as OpenedField<Value> | undefined;
  if (!f) return '';
  return f.status === 'readable' ? valueText(f.plaintext) : '[forgotten: key destroyed]';
}

type Data = Record<string, unknown>;
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const sourceType = (v: unknown): string => str((v as { type?: unknown } | undefined)?.type);

/** One describer per event type of the subject stream: a new type is a type error here until it is described. */
const DESCRIBE: Readonly<Record<SubjectEventType, (d: Data) => string>> = {
  MemoryRecorded: (d) =>
    `${str(d.key)} = ${d.polarity === 'negated' ? 'NOT ' : ''}${opened(d.value)} (${str(d.kind)}, ${sourceType(d.source)}, valid from ${str(d.validFrom)})`,
  MemoryCorroborated: (d) => `${str(d.memoryId)} corroborated by ${sourceType(d.source)}`,
  MemorySuperseded: (d) =>
    `${str(d.memoryId)} superseded by ${str(d.supersededBy)} (${str(d.cause)}; its valid window closes at ${str(d.validTo)})`,
  MemoryRetracted: (d) => `${str(d.memoryId)} retracted: ${str(d.reason)}`,
  ConflictDetected: (d) => `conflict ${str(d.conflictId)} on ${str(d.key)} between ${ids(d.memoryIds).join(', ')}`,
  ConflictResolved: (d) => `conflict ${str(d.conflictId)} resolved for ${str(d.winner)}`,
  TrustChanged: (d) => `source ${str(d.sourceRef)} now trusted as ${str(d.level)}`,
  TaintPolicyEscalated: (d) => `taint policy v${str(d.policyVersion)}: ${ids(d.refPatterns).join(', ')} (${str(d.reason)})`,
  MemoryExpired: (d) => `${str(d.memoryId)} expired (due ${str(d.expiresAt)})`,
  MemoryForgotten: (d) => `${str(d.memoryId)} erased${d.reason ? `: ${str(d.reason)}` : ''}`,
  SubjectForgotten: (d) => `the whole subject erased${d.reason ? `: ${str(d.reason)}` : ''}`,
  SummaryAliasSwitched: (d) =>
    `summary alias -> ${str(d.artifactId)} (epoch ${str(d.sourceEpoch)}, covers through ${str(d.coversThrough)})`,
  DeletionReceiptIssued: (d) => `deletion receipt ${str(d.receiptId)} (${str(d.scope)}, ${ids(d.memoryIds).length} memories)`,
  MemoryProposed: (d) => {
    const gate = d.gate as { ruleId?: unknown } | undefined;
    return `${str(d.memoryId)} held for review by rule ${str(gate?.ruleId)} (expires ${str(d.expiresAt)})`;
  },
  ProposalRejected: (d) => `candidate ${str(d.memoryId)} rejected${d.reason ? `: ${str(d.reason)}` : ''}`,
  ProposalExpired: (d) => `candidate ${str(d.memoryId)} expired unreviewed (due ${str(d.expiresAt)})`,
  MemoryDemoted: (d) => `${str(d.memoryId)} demoted: ${str(d.reason)} (rule ${str(d.rule)}, lifecycle policy v${str(d.policyVersion)})`,
  MemoryRestored: (d) => `${str(d.memoryId)} restored (${str(d.reason)})`,
  MemoryArchived: (d) => `${str(d.memoryId)} archived: ${str(d.reason)} (rule ${str(d.rule)}, lifecycle policy v${str(d.policyVersion)})`,
  MemoryFeedbackGiven: (d) =>
    `${str(d.source)} says ${str(d.memoryId)} was ${str(d.type)}${d.recallId ? ` (recall ${str(d.recallId)})` : ''}${
      d.review === 'opened' ? ': under review' : d.review === 'closed' ? ': reinstated by a reviewer' : ''
    }`,
  MemoryPromoted: (d) =>
    `${str(d.memoryId)} proposed to ${str(d.to)} as candidate ${str(d.as)}${d.requestedBy ? ` by ${str(d.requestedBy)}` : ''}: ${str(d.reason)}`,
};

export function describeEvent(event: DecodedEvent): string {
  const describe = (DESCRIBE as Readonly<Record<string, ((d: Data) => string) | undefined>>)[event.type];
  // A server newer than this console may send types it does not know yet.
  return describe ? describe(event.data) : `${event.type} (an event type this console does not describe)`;
}
