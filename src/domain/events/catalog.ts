// The whole event catalog: every type, its schema and its current version.
import { ARTIFACT_EVENT_SCHEMAS, type ArtifactEvent } from './artifact-events.js';
import { SUBJECT_EVENT_SCHEMAS, type SubjectEvent } from './subject-events.js';
import { POLICY_EVENT_SCHEMAS, type PolicyEvent } from '../policy/stream/events.js';
import { LIFECYCLE_POLICY_EVENT_SCHEMAS, type LifecyclePolicyEvent } from '../lifecycle/stream.js';
import { RECALL_EVENT_SCHEMAS, type RecallEvent } from './recall-events.js';

export const EVENT_SCHEMAS = {
  ...SUBJECT_EVENT_SCHEMAS,
  ...ARTIFACT_EVENT_SCHEMAS,
  ...POLICY_EVENT_SCHEMAS,
  ...LIFECYCLE_POLICY_EVENT_SCHEMAS,
  ...RECALL_EVENT_SCHEMAS,
} as const;
export type EventType = keyof typeof EVENT_SCHEMAS;
export type DomainEvent = SubjectEvent | ArtifactEvent | PolicyEvent | LifecyclePolicyEvent | RecallEvent;

/** Bump a type's version when its shape changes, and register an upcaster from the old one. */
export const CURRENT_SCHEMA_VERSIONS: Readonly<Record<EventType, number>> = {
  MemoryRecorded: 2,
  MemoryCorroborated: 1,
  MemorySuperseded: 1,
  MemoryRetracted: 1,
  ConflictDetected: 1,
  ConflictResolved: 1,
  TrustChanged: 1,
  TaintPolicyEscalated: 1,
  MemoryExpired: 1,
  MemoryForgotten: 1,
  SubjectForgotten: 1,
  SummaryAliasSwitched: 1,
  DeletionReceiptIssued: 1,
  MemoryProposed: 1,
  ProposalRejected: 1,
  ProposalExpired: 1,
  MemoryDemoted: 1,
  MemoryRestored: 1,
  MemoryArchived: 1,
  MemoryFeedbackGiven: 1,
  MemoryPromoted: 1,
  ArtifactGenerated: 2,
  GatePassed: 1,
  GateFailed: 1,
  GenerationFailed: 1,
  ConsolidationRejected: 1,
  ArtifactApproved: 1,
  WritePolicySet: 1,
  LifecyclePolicySet: 1,
  RecallServed: 1,
};

export function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_SCHEMAS, type);
}

export function isSubjectEvent(event: DomainEvent): event is SubjectEvent {
  return Object.prototype.hasOwnProperty.call(SUBJECT_EVENT_SCHEMAS, event.type);
}

export function isArtifactEvent(event: DomainEvent): event is ArtifactEvent {
  return Object.prototype.hasOwnProperty.call(ARTIFACT_EVENT_SCHEMAS, event.type);
}

export function isPolicyEvent(event: DomainEvent): event is PolicyEvent {
  return Object.prototype.hasOwnProperty.call(POLICY_EVENT_SCHEMAS, event.type);
}

export function isLifecyclePolicyEvent(event: DomainEvent): event is LifecyclePolicyEvent {
  return Object.prototype.hasOwnProperty.call(LIFECYCLE_POLICY_EVENT_SCHEMAS, event.type);
}

export function isRecallEvent(event: DomainEvent): event is RecallEvent {
  return Object.prototype.hasOwnProperty.call(RECALL_EVENT_SCHEMAS, event.type);
}
