// A synthetic subject of n memories for the speed benchmark, made
// deterministically from the words of the quality data set: English and
// Chinese sentences, most of them episodic turns, the rest keyed facts (some
// in conflicts), order ids in some, recorded over two years.
import type { RetrievalDocument } from '../../src/domain/retrieval/index.js';
import type { Conversation } from './generate.js';
import { random } from './random.js';

const TRUSTS = ['human_review', 'user_assertion', 'user_assertion', 'verified_tool_fact', 'derived_summary', 'model_inference'] as const;

export function syntheticSubject(conversation: Conversation, n: number, seed = 7): RetrievalDocument[] {
  const rand = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const english = [...new Set(conversation.turns.filter((t) => t.lang === 'en').flatMap((t) => t.text.split(/\s+/)))];
  const chinese = [
    ...new Set(conversation.turns.filter((t) => t.lang === 'zh').flatMap((t) => t.text.match(/\p{Script=Han}{2,4}/gu) ?? [])),
  ];
  const sentence = () =>
    rand() < 0.6
      ? Array.from({ length: 6 + Math.floor(rand() * 13) }, () => pick(english)).join(' ')
      : Array.from({ length: 4 + Math.floor(rand() * 8) }, () => pick(chinese)).join('');
  const now = Date.parse(conversation.now);
  const docs: RetrievalDocument[] = [];
  for (let i = 0; i < n; i++) {
    const keyed = rand() < 0.3;
    const order =
      rand() < 0.1
        ? ` ORD-${Math.floor(rand() * 0xffffffff)
            .toString(16)
            .toUpperCase()
            .padStart(8, '0')}`
        : '';
    docs.push({
      id: `m-${String(i).padStart(6, '0')}`,
      kind: keyed ? pick(['profile', 'semantic', 'procedural'] as const) : 'episodic',
      // One active statement per slot, as the write decisions leave it; conflicts below share one.
      key: keyed ? `topic${Math.floor(rand() * 40)}.field${i}` : 'conversation.turn',
      content: sentence() + order,
      ...(keyed ? { value: pick(english) } : {}),
      trust: pick(TRUSTS),
      confidence: rand() < 0.5 ? null : Math.round(rand() * 100) / 100,
      sensitivity: rand() < 0.9 ? 'normal' : 'personal',
      recordedAt: new Date(now - Math.floor(rand() * 730 * 86_400_000)).toISOString(),
    });
  }
  // A few open conflicts between keyed facts.
  const keyed = docs.filter((d) => d.kind !== 'episodic');
  for (let c = 0; c + 1 < keyed.length && c < n / 50; c += 2) {
    const conflictIds = [`c-${c}`];
    docs[docs.indexOf(keyed[c]!)] = { ...keyed[c]!, conflictIds };
    docs[docs.indexOf(keyed[c + 1]!)] = { ...keyed[c + 1]!, key: keyed[c]!.key, conflictIds };
  }
  return docs;
}
