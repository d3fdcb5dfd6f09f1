// A current memory version as recall reads it (subject-view-shape.ts), with
// plain defaults: tests override what they are about.
import type { CurrentVersion } from '../../../src/queries/recall/subject-view-shape.js';

export function currentVersion(id: string, overrides: Partial<CurrentVersion> = {}): CurrentVersion {
  return {
    memory_id: id,
    version: 1,
    sequence: 1,
    kind: 'profile',
    key: `contact.${id}`,
    scopes: {},
    value: null,
    content: null,
    anticipated_queries: null,
    polarity: 'affirmed',
    source_type: 'user',
    source_refs: [],
    trust: 'user_assertion',
    confidence: null,
    sensitivity: 'normal',
    consent_ref: null,
    purposes: null,
    valid_from: new Date('2026-11-01T00:00:00.000Z'),
    valid_to: null,
    expires_at: null,
    tx_from: new Date('2026-11-01T00:00:00.000Z'),
    opened_by: 'u',
    opened_by_type: 'user',
    promoted_from: null,
    usage: null,
    ...overrides,
  };
}
