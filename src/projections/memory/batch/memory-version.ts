// A memory_versions row as the batch holds it in memory, and the conversions
// to and from the table's columns.
import type { Insertable, Selectable } from 'kysely';
import type { PromotionOrigin } from '../../../domain/events/promotion-events.js';
import type { Sealed } from '../../../domain/events/sealed.js';
import type { MemoryStatus, MemoryVersionsTable } from '../tables.js';

export interface MemoryVersion {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
  readonly version: number;
  readonly sequence: number;
  readonly status: MemoryStatus;
  readonly kind: string;
  readonly key: string;
  readonly scopes: Record<string, string>;
  readonly valueType: string;
  valueHash: string | null;
  value: Sealed | null;
  readonly polarity: string;
  content: Sealed | null;
  contentHash: string | null;
  anticipatedQueries: Sealed | null;
  readonly sourceType: string;
  readonly sourceRefs: readonly string[];
  readonly trust: string;
  readonly confidence: number | null;
  readonly sensitivity: string;
  readonly consentRef: string | null;
  readonly purposes: readonly string[] | null;
  readonly refines: readonly string[] | null;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly expiresAt: string | null;
  readonly supersededBy: string | null;
  readonly txFrom: string;
  readonly txFromCommit: string;
  readonly txFromPrepare: string;
  /** Set once, when the next version closes this one. */
  txTo: string | null;
  txToCommit: string | null;
  txToPrepare: string | null;
  closedBy: string | null;
  readonly openedBy: string;
  readonly openedByType: string;
  /** An accepted promotion's origin (issue 19); every version of the memory keeps it. */
  readonly promotedFrom: PromotionOrigin | null;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function fromRow(row: Selectable<MemoryVersionsTable>): MemoryVersion {
  return {
    tenant: row.tenant,
    subject: row.subject,
    memoryId: row.memory_id,
    version: row.version,
    sequence: row.sequence,
    status: row.status,
    kind: row.kind,
    key: row.key,
    scopes: row.scopes,
    valueType: row.value_type,
    valueHash: row.value_hash,
    value: row.value,
    polarity: row.polarity,
    content: row.content,
    contentHash: row.content_hash,
    anticipatedQueries: row.anticipated_queries,
    sourceType: row.source_type,
    sourceRefs: row.source_refs,
    trust: row.trust,
    confidence: row.confidence,
    sensitivity: row.sensitivity,
    consentRef: row.consent_ref,
    purposes: row.purposes,
    refines: row.refines,
    validFrom: row.valid_from.toISOString(),
    validTo: iso(row.valid_to),
    expiresAt: iso(row.expires_at),
    supersededBy: row.superseded_by,
    txFrom: row.tx_from.toISOString(),
    txFromCommit: row.tx_from_commit,
    txFromPrepare: row.tx_from_prepare,
    txTo: iso(row.tx_to),
    txToCommit: row.tx_to_commit,
    txToPrepare: row.tx_to_prepare,
    closedBy: row.closed_by,
    openedBy: row.opened_by,
    openedByType: row.opened_by_type,
    promotedFrom: row.promoted_from,
  };
}

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export function toRow(v: MemoryVersion): Insertable<MemoryVersionsTable> {
  return {
    tenant: v.tenant,
    subject: v.subject,
    memory_id: v.memoryId,
    version: v.version,
    sequence: v.sequence,
    status: v.status,
    kind: v.kind,
    key: v.key,
    scopes: JSON.stringify(v.scopes),
    value_type: v.valueType,
    value_hash: v.valueHash,
    value: json(v.value),
    polarity: v.polarity,
    content: json(v.content),
    content_hash: v.contentHash,
    anticipated_queries: json(v.anticipatedQueries),
    source_type: v.sourceType,
    source_refs: JSON.stringify(v.sourceRefs),
    trust: v.trust,
    confidence: v.confidence,
    sensitivity: v.sensitivity,
    consent_ref: v.consentRef,
    purposes: json(v.purposes),
    refines: json(v.refines),
    valid_from: v.validFrom,
    valid_to: v.validTo,
    expires_at: v.expiresAt,
    superseded_by: v.supersededBy,
    tx_from: v.txFrom,
    tx_to: v.txTo,
    tx_from_commit: v.txFromCommit,
    tx_from_prepare: v.txFromPrepare,
    tx_to_commit: v.txToCommit,
    tx_to_prepare: v.txToPrepare,
    opened_by: v.openedBy,
    opened_by_type: v.openedByType,
    closed_by: v.closedBy,
    promoted_from: json(v.promotedFrom),
  };
}
