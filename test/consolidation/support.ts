// Shared set-up of the consolidation tests: services with the real
// tokenizer, and quick ways to fill a subject.
import { importEntries, validateImportLines } from '../../src/commands/import.js';
import type { CommandContext, Ledger } from '../../src/commands/ledger.js';
import { shadowTenantsFrom, type ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { artifactStreamName } from '../../src/domain/events/stream-names.js';
import { decodeStoredEvent } from '../../src/domain/events/decode.js';
import type { SubjectState } from '../../src/domain/subject/state.js';
import { deterministicSummarizer } from '../../src/infrastructure/summarizer/deterministic.js';
import type { Summarizer } from '../../src/infrastructure/summarizer/port.js';
import { loadTokenCounter } from '../../src/infrastructure/summarizer/tokenizer.js';

export async function testServices(
  overrides: Partial<ConsolidationServices> & { shadowTenants?: string; summarizer?: Summarizer } = {},
): Promise<ConsolidationServices> {
  const { shadowTenants, ...rest } = overrides;
  return {
    summarizer: deterministicSummarizer(),
    countTokens: await loadTokenCounter(),
    tokenBudget: 4000,
    shadowMode: shadowTenantsFrom(shadowTenants),
    ...rest,
  };
}

/** A profile entry naming a channel (`channel.sms`, value "sms"): two make a subject due at threshold 2. */
export const channelEntry = (text: string) => ({
  kind: 'profile',
  key: `channel.${text}`,
  value: { type: 'text', text },
  source: { type: 'user_assertion', refs: ['msg://1'] },
});

/** A number spelled in letters (27 -> "qbb"; the q keeps it from spelling "no"): notes that name one hold no fact of their words. */
export function spelled(i: number): string {
  return `q${[...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('')}`;
}

/** An entry of its own key, so each one is NEW and advances H by one. Every 10th is a number (must-preserve); the others' words hold no fact. */
export function fillerEntry(i: number, tag = 'f'): Record<string, unknown> {
  return i % 10 === 0
    ? {
        kind: 'semantic',
        key: `${tag}.limit.k${i}`,
        value: { type: 'number', amount: String(i), unit: 'h' },
        source: { type: 'verified_tool_fact' },
      }
    : {
        kind: 'episodic',
        key: `${tag}.note.k${i}`,
        value: { type: 'text', text: `note ${spelled(i)}` },
        content: `The user mentioned detail ${spelled(i)} in passing.`,
        source: { type: 'user_assertion' },
      };
}

/** Appends `count` NEW entries (sequences continue from the current H). */
export async function fill(ledger: Ledger, context: CommandContext, count: number, from = 1, tag = 'f'): Promise<void> {
  const entries = validateImportLines(Array.from({ length: count }, (_, i) => fillerEntry(from + i, tag)));
  await importEntries(ledger, context, entries, { importId: `${context.subject}-${tag}-${from}-${count}`, batchSize: 500 });
}

export async function subjectState(ledger: Ledger, context: CommandContext): Promise<SubjectState> {
  return (await ledger.subjects.load(subjectStreamName(context.tenant, context.subject))).state;
}

export async function artifactEventTypes(ledger: Ledger, artifactId: string): Promise<string[]> {
  return (await ledger.eventStore.readStream(artifactStreamName(artifactId))).map((e) => e.type);
}

export async function subjectEvents(ledger: Ledger, context: CommandContext) {
  const stored = await ledger.eventStore.readStream(subjectStreamName(context.tenant, context.subject));
  return stored.map((s) => ({ stored: s, event: decodeStoredEvent(s) }));
}
