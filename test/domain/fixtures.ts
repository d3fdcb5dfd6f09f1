// Test fixtures for the domain: entries sealed with real AES-256-GCM and
// HMAC-SHA256 under fixed test keys (the domain never sees the keys).
import { createCipheriv, createHmac } from 'node:crypto';
import { canonicalValueJson } from '../../src/domain/canonical/canonical-value.js';
import { requireEntry } from '../../src/domain/entry/entry.js';
import { toSealedEntry, type SealedEntry } from '../../src/domain/entry/sealed-entry.js';
import type { Sealed } from '../../src/domain/events/sealed.js';
import type { SubjectCommand, SubjectCommandOf } from '../../src/domain/subject/commands.js';
import { decide } from '../../src/domain/subject/decide.js';
import { evolve } from '../../src/domain/subject/evolve.js';
import { initialState, type SubjectState } from '../../src/domain/subject/state.js';
import type { SubjectEvent } from '../../src/domain/events/subject-events.js';

const DATA_KEY = Buffer.alloc(32, 7);
const HASH_KEY = Buffer.alloc(32, 9);
let ivCounter = 0;

function seal(plaintext: string): Sealed {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(++ivCounter, 8);
  const cipher = createCipheriv('aes-256-gcm', DATA_KEY, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { alg: 'A256GCM', keyId: 'test-key', iv: iv.toString('base64'), ct: ct.toString('base64') };
}

export function keyedHash(text: string): string {
  return createHmac('sha256', HASH_KEY).update(text, 'utf8').digest('hex');
}

/** Parses a client entry (defaults: a profile fact from a user) and seals it. */
export function sealed(overrides: Record<string, unknown> = {}): SealedEntry {
  const entry = requireEntry({
    kind: 'profile',
    key: 'notification.preference',
    value: { type: 'text', text: 'sms' },
    source: { type: 'user_assertion', refs: ['msg://thread-9/turn-14'] },
    ...overrides,
  });
  const valueText = canonicalValueJson(entry.value);
  return toSealedEntry(entry, {
    value: seal(JSON.stringify(entry.value)),
    valueHash: keyedHash(valueText),
    ...(entry.content !== undefined ? { content: seal(entry.content), contentHash: keyedHash(entry.content) } : {}),
  });
}

export const T0 = '2026-07-01T00:00:00.000Z';
export const T1 = '2026-07-05T00:00:00.000Z';
export const T2 = '2026-07-10T00:00:00.000Z';
export const T3 = '2026-07-20T00:00:00.000Z';

export function record(memoryId: string, entry: SealedEntry, now = T2, conflictId = `c-${memoryId}`): SubjectCommandOf<'RecordMemory'> {
  return { type: 'RecordMemory', memoryId, conflictId, entry, now };
}

/** Decides and evolves; throws on a rejection (for building up states). */
export function run(state: SubjectState, command: SubjectCommand): { state: SubjectState; events: readonly SubjectEvent[] } {
  const result = decide(state, command);
  if (!result.ok) throw new Error(`rejected: ${result.rejection.code} ${result.rejection.message}`);
  return { state: result.events.reduce(evolve, state), events: result.events };
}

export function runAll(commands: SubjectCommand[], from: SubjectState = initialState()): { state: SubjectState; events: SubjectEvent[] } {
  let state = from;
  const events: SubjectEvent[] = [];
  for (const command of commands) {
    const step = run(state, command);
    state = step.state;
    events.push(...step.events);
  }
  return { state, events };
}
