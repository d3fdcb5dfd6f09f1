import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSIONS, EVENT_SCHEMAS } from '../../src/domain/events/catalog.js';
import { decodeEvent, decodeEventOrThrow, decodeStoredEvent, encodeEvent, EventDecodingError } from '../../src/domain/events/decode.js';
import {
  artifactStreamName,
  parseArtifactStreamName,
  parseSubjectStreamName,
  subjectStreamName,
} from '../../src/domain/events/stream-names.js';
import { EPOCH_ADVANCING_EVENTS, type SubjectEventData } from '../../src/domain/events/subject-events.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { record, run, sealed, T2 } from './fixtures.js';
import { initialState } from '../../src/domain/subject/state.js';

function recordedData(): SubjectEventData<'MemoryRecorded'> {
  const { events } = run(
    initialState(),
    record('m-1', sealed({ content: 'Prefers SMS.', scopes: { project: 'shop-a' }, polarity: 'negated' })),
  );
  const event = events[0]!;
  if (event.type !== 'MemoryRecorded') throw new Error('expected MemoryRecorded');
  return event.data;
}

describe('the event catalog', () => {
  it('defines every event of DESIGN section 3 with a schema version', () => {
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual(
      [
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
        'MemoryProposed',
        'ProposalRejected',
        'ProposalExpired',
        'MemoryDemoted',
        'MemoryRestored',
        'MemoryArchived',
        'ArtifactGenerated',
        'GatePassed',
        'GateFailed',
        'GenerationFailed',
        'ConsolidationRejected',
        'ArtifactApproved',
        'WritePolicySet',
        'LifecyclePolicySet',
        'MemoryFeedbackGiven',
        'MemoryPromoted',
        'RecallServed',
      ].sort(),
    );
    expect(Object.keys(CURRENT_SCHEMA_VERSIONS).sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
  });

  it('lists exactly the epoch-advancing events of DESIGN section 3', () => {
    expect([...EPOCH_ADVANCING_EVENTS].sort()).toEqual(
      [
        'MemorySuperseded',
        'MemoryRetracted',
        'ConflictDetected',
        'ConflictResolved',
        'TrustChanged',
        'TaintPolicyEscalated',
        'MemoryExpired',
        'MemoryArchived',
        'MemoryForgotten',
        'SubjectForgotten',
      ].sort(),
    );
  });
});

describe('MemoryRecorded keeps personal fields sealed', () => {
  it('carries value and content only as envelopes, with keyed hashes in clear', () => {
    const data = recordedData();
    const text = JSON.stringify(data);
    expect(text).not.toContain('sms');
    expect(text).not.toContain('Prefers SMS');
    expect(data.value).toMatchObject({ alg: 'A256GCM', keyId: 'test-key' });
    expect(data.content).toMatchObject({ alg: 'A256GCM' });
    expect(data.valueHash).toMatch(/^[0-9a-f]{64}$/);
    expect(data).toMatchObject({
      memoryId: 'm-1',
      sequence: 1,
      key: 'notification.preference',
      valueType: 'text',
      polarity: 'negated',
      trust: 'user_assertion',
      validFrom: T2,
    });
  });
});

describe('decodeEvent', () => {
  it('round-trips what encodeEvent writes', () => {
    const data = recordedData();
    const encoded = encodeEvent({ type: 'MemoryRecorded', data });
    expect(encoded.schemaVersion).toBe(2);
    const decoded = decodeEvent(encoded.type, JSON.parse(JSON.stringify(encoded.data)), encoded.schemaVersion);
    expect(decoded).toEqual({ ok: true, event: { type: 'MemoryRecorded', data } });
  });

  it('upcasts a v1 MemoryRecorded (no scopes, no polarity) to the current shape', () => {
    const { scopes: _s, polarity: _p, ...v1 } = recordedData();
    expect(decodeEvent('MemoryRecorded', v1, 2).ok).toBe(false);
    const decoded = decodeEvent('MemoryRecorded', v1, 1);
    expect(decoded.ok).toBe(true);
    if (decoded.ok && decoded.event.type === 'MemoryRecorded') {
      expect(decoded.event.data.scopes).toEqual({});
      expect(decoded.event.data.polarity).toBe('affirmed');
      expect(decoded.event.data.memoryId).toBe('m-1');
    }
  });

  it('names the field that does not decode', () => {
    const data = recordedData();
    const cases: Array<[unknown, string]> = [
      [{ ...data, sequence: 0 }, 'sequence'],
      [{ ...data, valueHash: 'not-hex' }, 'valueHash'],
      [{ ...data, value: { ...data.value, alg: 'A128GCM' } }, 'value.alg'],
      [{ ...data, validFrom: '2026-02-30T00:00:00Z' }, 'validFrom'],
      [{ ...data, surprise: true }, 'surprise'],
      [{ ...data, kind: 'opinion' }, 'kind'],
    ];
    for (const [bad, field] of cases) {
      const decoded = decodeEvent('MemoryRecorded', bad, 2);
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) {
        expect(decoded.error).toBeInstanceOf(EventDecodingError);
        expect(decoded.error.field).toBe(field);
        expect(decoded.error.eventType).toBe('MemoryRecorded');
      }
    }
  });

  it('refuses unknown types, versions from the future, and data that is not an object', () => {
    expect(() => decodeEventOrThrow('MemoryMangled', {}, 1)).toThrow(/unknown event type/);
    expect(() => decodeEventOrThrow('MemoryRetracted', { memoryId: 'm-1', reason: 'x', retractedAt: T2 }, 2)).toThrow(/newer/);
    expect(() => decodeEventOrThrow('MemoryRetracted', 'x', 1)).toThrow(/object/);
    expect(() => decodeEventOrThrow('MemoryRetracted', {}, 0)).toThrow(/positive/);
  });

  it('decodes a stored event by its metadata schemaVersion', () => {
    const event = decodeStoredEvent({
      type: 'MemoryRetracted',
      data: { memoryId: 'm-1', reason: 'wrong', retractedAt: '2026-07-10T08:00:00+08:00' },
      metadata: { schemaVersion: 1 },
    });
    expect(event).toEqual({ type: 'MemoryRetracted', data: { memoryId: 'm-1', reason: 'wrong', retractedAt: '2026-07-10T00:00:00.000Z' } });
  });

  it('decodes the artifact events', () => {
    const gateFailed = {
      artifactId: 'a-1',
      reasons: [{ code: 'polarity_flipped', message: 'claim notification.preference flips polarity', memoryId: 'm-1' }],
      checkedAt: T2,
    };
    expect(decodeEvent('GateFailed', gateFailed, 1).ok).toBe(true);
    const none = decodeEvent('GateFailed', { ...gateFailed, reasons: [] }, 1);
    expect(!none.ok && none.error.field).toBe('reasons');
    const rejected = decodeEvent('ConsolidationRejected', { artifactId: 'a-1', reason: 'epoch_changed', message: 'm', rejectedAt: T2 }, 1);
    expect(rejected.ok).toBe(true);
    const badReason = decodeEvent('ConsolidationRejected', { artifactId: 'a-1', reason: 'bored', message: 'm', rejectedAt: T2 }, 1);
    expect(!badReason.ok && badReason.error.field).toBe('reason');
  });

  it('encodeEvent refuses an invalid event instead of writing it', () => {
    expect(() => encodeEvent({ type: 'MemoryRetracted', data: { memoryId: 'has space', reason: 'x', retractedAt: T2 } })).toThrow(
      EventDecodingError,
    );
  });
});

describe('stream names', () => {
  it('builds and parses subject and artifact streams', () => {
    expect(subjectStreamName('acme', 'user:123')).toBe('memory-acme/user:123');
    expect(parseSubjectStreamName('memory-acme/user:123')).toEqual({ tenant: 'acme', subject: 'user:123' });
    expect(artifactStreamName('a-1')).toBe('artifact-a-1');
    expect(parseArtifactStreamName('artifact-a-1')).toEqual({ artifactId: 'a-1' });
    expect(parseSubjectStreamName('memory-acme/a/b')).toBeUndefined();
  });

  it('refuses ids that would break a stream name, naming tenant or subject', () => {
    const fieldOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidInput);
        return (e as InvalidInput).field;
      }
      return 'no error';
    };
    expect(fieldOf(() => subjectStreamName('ac/me', 'u'))).toBe('tenant');
    expect(fieldOf(() => subjectStreamName('acme', 'a/b'))).toBe('subject');
    expect(fieldOf(() => subjectStreamName('acme', ''))).toBe('subject');
    expect(fieldOf(() => subjectStreamName('acme', 'has space'))).toBe('subject');
    expect(fieldOf(() => subjectStreamName(' acme', 'u'))).toBe('tenant');
    expect(fieldOf(() => artifactStreamName('x'.repeat(200)))).toBe('artifactId');
  });
});
