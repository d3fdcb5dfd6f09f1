// One line per event of the subject stream, in the domain's words. Sealed
// fields appear only as the events route returned them (readable, or
// forgotten once their key is gone); the console never opens anything.
import type { DecodedEvent, OpenedField, Value } from '../../api/types.js';
import { valueText } from '../../ui/values.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

function opened(field: unknown): string {
  const f = field as OpenedField<Value> | undefined;
  if (!f) return '';
  return f.status === 'readable' ? valueText(f.plaintext) : '[forgotten: key destroyed]';
}

const KNOWN_TYPES = [
  'MemoryRecorded',
  'MemoryCorroborated',
  'MemorySuperseded',
  'MemoryRetracted',
  'ConflictDetected',
  'ConflictResolved',
  'TrustChanged',
  'TaintPolicyEscalated',
  'MemoryExpired',
  'MemoryForgotten',
  'SubjectForgotten',
  'SummaryAliasSwitched',
  'DeletionReceiptIssued',
] as const;
type KnownType = (typeof KNOWN_TYPES)[number];

const isKnown = (type: string): type is KnownType => (KNOWN_TYPES as readonly string[]).includes(type);

export function describeEvent(event: DecodedEvent): string {
  const d = event.data;
  if (!isKnown(event.type)) return `${event.type} (an event type this console does not describe)`;
  const type: KnownType = event.type;
  switch (type) {
    case 'MemoryRecorded':
      return `${str(d.key)} = ${d.polarity === 'negated' ? 'NOT ' : ''}${opened(d.value)} (${str(d.kind)}, ${str((d.source as { type?: string } | undefined)?.type)}, valid from ${str(d.validFrom)})`;
    case 'MemoryCorroborated':
      return `${str(d.memoryId)} corroborated by ${str((d.source as { type?: string } | undefined)?.type)}`;
    case 'MemorySuperseded':
      return `${str(d.memoryId)} superseded by ${str(d.supersededBy)} (${str(d.cause)}; its valid window closes at ${str(d.validTo)})`;
    case 'MemoryRetracted':
      return `${str(d.memoryId)} retracted: ${str(d.reason)}`;
    case 'ConflictDetected':
      return `conflict ${str(d.conflictId)} on ${str(d.key)} between ${((d.memoryIds as string[] | undefined) ?? []).join(', ')}`;
    case 'ConflictResolved':
      return `conflict ${str(d.conflictId)} resolved for ${str(d.winner)}`;
    case 'TrustChanged':
      return `source ${str(d.sourceRef)} now trusted as ${str(d.level)}`;
    case 'TaintPolicyEscalated':
      return `taint policy v${str(d.policyVersion)}: ${((d.refPatterns as string[] | undefined) ?? []).join(', ')} (${str(d.reason)})`;
    case 'MemoryExpired':
      return `${str(d.memoryId)} expired (due ${str(d.expiresAt)})`;
    case 'MemoryForgotten':
      return `${str(d.memoryId)} erased${d.reason ? `: ${str(d.reason)}` : ''}`;
    case 'SubjectForgotten':
      return `the whole subject erased${d.reason ? `: ${str(d.reason)}` : ''}`;
    case 'SummaryAliasSwitched':
      return `summary alias -> ${str(d.artifactId)} (epoch ${str(d.sourceEpoch)}, covers through ${str(d.coversThrough)})`;
    case 'DeletionReceiptIssued':
      return `deletion receipt ${str(d.receiptId)} (${str(d.scope)}, ${((d.memoryIds as string[] | undefined) ?? []).length} memories)`;
    default: {
      const never: never = type;
      return never;
    }
  }
}
