// One answer to "what did the system believe at system time T about
// business time V": the memory versions current at T whose valid window
// holds V and that were held true then (active, or superseded for the window
// they kept). asOf computes it from memory_versions, replay from the event
// stream alone; both produce exactly this shape so they can be compared.
import { normaliseScopes, type Scopes } from '../domain/entry/scopes.js';
import type { PersonalFields } from './opened/memory-fields.js';

export interface Belief {
  readonly memoryId: string;
  /** 1, 2, …: one per event that changed the memory. */
  readonly version: number;
  readonly sequence: number;
  readonly status: 'active' | 'superseded';
  readonly kind: string;
  readonly key: string;
  readonly scopes: Scopes;
  readonly valueType: string;
  readonly polarity: string;
  /** Value and content, opened; `forgotten` once erased. */
  readonly personal: PersonalFields;
  readonly source: { readonly type: string; readonly refs: readonly string[] };
  readonly trust: string;
  readonly confidence: number | null;
  readonly sensitivity: string;
  readonly consentRef: string | null;
  /** Purpose labels; null: served for any purpose. */
  readonly purposes: readonly string[] | null;
  /** Lineage: the memories this one refines (a REFINEMENT); null: none. */
  readonly refines: readonly string[] | null;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly expiresAt: string | null;
  readonly supersededBy: string | null;
  /** The store's commit time of the event that opened this version. */
  readonly recordedAt: string;
  readonly recordedBy: { readonly eventId: string; readonly type: string };
}

export interface BeliefAnswer {
  readonly tenant: string;
  readonly subject: string;
  readonly systemTime: string;
  readonly validTime: string;
  /** Where the answer was computed from. */
  readonly from: 'memory_versions' | 'event_stream';
  readonly beliefs: readonly Belief[];
}

/** The columns both paths fill the same way (scopes in one key order). */
export type BeliefFields = Omit<Belief, 'personal' | 'scopes'> & { readonly scopes: Record<string, string> };

export function belief(fields: BeliefFields, personal: PersonalFields): Belief {
  return { ...fields, scopes: normaliseScopes(fields.scopes), personal };
}

export function byBeliefOrder(a: Belief, b: Belief): number {
  return a.sequence - b.sequence || (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0);
}
