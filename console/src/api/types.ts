// The answers of the /v1 routes, as far as the console reads them (the
// server's zod schemas and src/queries are the reference; fields the console
// does not show are left out).
export type { Value } from '../../../src/domain/values/value.js';
import type { Value } from '../../../src/domain/values/value.js';

/** A sealed field as the events route returns it: opened while its key exists. */
export type OpenedField<T> = { readonly status: 'readable'; readonly plaintext: T } | { readonly status: 'forgotten' };

export interface DecodedEvent {
  readonly revision: number;
  readonly position: string;
  readonly recordedAt: string;
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export type PersonalFields =
  { readonly status: 'readable'; readonly value: Value; readonly content?: string } | { readonly status: 'forgotten' };

export interface Belief {
  readonly memoryId: string;
  readonly version: number;
  readonly sequence: number;
  readonly status: string;
  readonly kind: string;
  readonly key: string;
  readonly scopes: Readonly<Record<string, string>>;
  readonly polarity: string;
  readonly personal: PersonalFields;
  readonly source: { readonly type: string; readonly refs: readonly string[] };
  readonly trust: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly recordedAt: string;
}

export interface BeliefAnswer {
  readonly systemTime: string;
  readonly validTime: string;
  readonly from: 'memory_versions' | 'event_stream';
  readonly beliefs: readonly Belief[];
}

export interface StaleMark {
  readonly artifactId?: string;
  readonly causeEventId: string;
  readonly causeType: string;
  readonly causeAt: string;
  readonly causeMemoryId: string | null;
  readonly viaArtifactId: string | null;
}

export interface StaleSet {
  readonly alias: { readonly artifactId: string; readonly stale: boolean } | null;
  readonly stale: ReadonlyArray<StaleMark & { readonly artifactId: string }>;
}

export interface DerivedFrom {
  readonly memoryId: string;
  readonly version: number | null;
}

export interface LineageArtifact {
  readonly artifactId: string;
  readonly subject: string;
  readonly status: string;
  readonly parentArtifactId: string | null;
  readonly inputEpoch: number | null;
  readonly newCoversThrough: number | null;
  readonly generatedAt: string | null;
  readonly publishedAt: string | null;
  readonly stale: StaleMark | null;
  readonly inputs: ReadonlyArray<{
    readonly memoryId: string;
    readonly version: number;
    readonly sequence: number | null;
    readonly statusNow: string | null;
    readonly invalidatedBy: { readonly eventId: string; readonly type: string; readonly at: string } | null;
  }>;
  readonly output:
    | {
        readonly status: 'readable';
        readonly claims: ReadonlyArray<{
          readonly index: number;
          readonly key: string;
          readonly polarity: string;
          readonly conflictIds: readonly string[];
          readonly derivedFrom: readonly DerivedFrom[];
        }>;
        readonly openItems: ReadonlyArray<{ readonly index: number; readonly derivedFrom: readonly DerivedFrom[] }>;
      }
    | { readonly status: 'forgotten' };
}

export interface Lineage {
  readonly artifactId: string;
  readonly stale: boolean;
  readonly artifacts: readonly LineageArtifact[];
}

export interface Provenance {
  readonly memoryId: string;
  readonly version: number;
  readonly sequence: number;
  readonly source: { readonly type: string; readonly refs: readonly string[] };
  readonly trust: string;
  readonly recordedAt: string;
  readonly recordedBy: { readonly eventId: string; readonly type: string };
}

/** Issue 16's per-item explanation of a query-relevant recall; absent from answers of servers without it. */
export interface Retrieval {
  readonly score: number;
  readonly rank: number;
  /** Stable codes with their share of the score (src/domain/retrieval/ranking/reasons.ts), plus details by code. */
  readonly reasons: ReadonlyArray<{ readonly code: string; readonly contribution: number } & Readonly<Record<string, unknown>>>;
}

interface ItemBase {
  readonly text: string;
  readonly tokens: number;
  readonly priority: number;
  readonly retrieval?: Retrieval;
}

export type RecallItem =
  | (ItemBase & {
      readonly type: 'memory';
      readonly memoryId: string;
      readonly kind: string;
      readonly key: string;
      readonly confidence: number | null;
      readonly provenance: Provenance;
    })
  | (ItemBase & {
      readonly type: 'claim';
      readonly key: string;
      readonly provenance: { readonly artifactId: string; readonly derivedFrom: readonly Provenance[] };
    })
  | (ItemBase & {
      readonly type: 'open_item';
      readonly provenance: { readonly artifactId: string; readonly derivedFrom: readonly Provenance[] };
    })
  | (ItemBase & {
      readonly type: 'conflict';
      readonly conflictId: string;
      readonly key: string;
      readonly sides: ReadonlyArray<
        | { readonly memoryId: string; readonly value: Value; readonly polarity: string; readonly provenance: Provenance }
        | { readonly memoryId: string; readonly withheld: string }
      >;
    });

export interface RecallAnswer {
  readonly now: string;
  readonly source: 'summary' | 'raw';
  readonly reason: string;
  readonly message: string;
  readonly alias: { readonly artifactId: string } | null;
  readonly budget: { readonly limit: number | null; readonly used: number; readonly overBudget: boolean };
  readonly items: readonly RecallItem[];
  readonly omitted: ReadonlyArray<{ readonly type: string; readonly ref: string; readonly tokens: number; readonly priority: number }>;
  readonly excluded: Readonly<Record<string, number>>;
  readonly notice: string;
}

export interface ErasureCheck {
  readonly path: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly searched: number;
  readonly findings: number;
  readonly note?: string;
}

export interface Verification {
  readonly status: 'passed' | 'failed' | 'not_run';
  readonly searchedFor: readonly string[];
  readonly checks: readonly ErasureCheck[];
  readonly verifiedAt: string;
}

export interface Receipt {
  readonly receiptId: string;
  readonly scope: string;
  readonly memoryIds: readonly string[];
  readonly destroyedKeyIds: readonly string[];
  readonly invalidatedArtifactIds: readonly string[];
  readonly sourceRef?: string;
  readonly reason?: string;
  readonly requestedBy?: string;
  readonly requestedAt?: string;
  readonly canonicalRecords?: number;
  readonly derivedRecordsInvalidated?: number;
  readonly indexesUpdated?: readonly string[];
  readonly cachesInvalidated?: readonly string[];
  readonly verification?: Verification;
  readonly issuedAt: string;
}

export interface SubjectReceipts {
  readonly receipts: readonly Receipt[];
}

export interface Reverification {
  readonly receiptId: string;
  readonly verification: Verification;
}
