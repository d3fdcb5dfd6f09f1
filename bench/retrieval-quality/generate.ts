// The retrieval-quality data set, generated deterministically from the
// hand-written episodes and the filler templates: a single user's
// conversation history with an assistant over about half a year (English
// and Chinese), and the questions asked about it with the ids of the turns
// that answer them. `node --import tsx bench/retrieval-quality/generate.ts`
// rewrites conversation.json; a test checks the committed file is what this
// generates.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chineseEpisodes } from './episodes-zh.js';
import { englishEpisodes } from './episodes-en.js';
import type { Episode, EpisodeTurn } from './episode.js';
import { chineseAcks, chineseFillers, chineseSlots, englishAcks, englishFillers, englishSlots, type FillerTemplate } from './fillers.js';
import { random } from './random.js';

export interface ConversationTurn {
  readonly id: string;
  readonly at: string;
  readonly role: 'user' | 'assistant';
  readonly lang: 'en' | 'zh';
  readonly text: string;
}

export interface ConversationQuestion {
  readonly id: string;
  readonly lang: 'en' | 'zh';
  readonly episode: string;
  /** Half the questions are for tuning, half are held out (reported apart). */
  readonly split: 'tune' | 'holdout';
  readonly text: string;
  readonly gold: readonly string[];
}

export interface Conversation {
  readonly generator: string;
  /** The moment the questions are asked: a day after the last turn. */
  readonly now: string;
  readonly turns: readonly ConversationTurn[];
  readonly questions: readonly ConversationQuestion[];
}

export const DATA_FILE = fileURLToPath(new URL('./conversation.json', import.meta.url));
const GENERATOR = 'retrieval-quality/v1 (seed 16)';
const ENGLISH_FILLER_UNITS = 90;
const CHINESE_FILLER_UNITS = 70;
/** A later block of an episode comes at least this many units after the one before it. */
const LATER_BLOCK_GAP = 30;
const START = Date.parse('2026-05-01T08:00:00Z');

type Unit = { readonly lang: 'en' | 'zh'; readonly turns: readonly EpisodeTurn[]; readonly ref?: { episode: string; block: number } };

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

function filler(rand: () => number, template: FillerTemplate, slots: Readonly<Record<string, readonly string[]>>, lang: 'en' | 'zh'): Unit {
  const chosen = new Map<string, string>();
  const fill = (text: string) =>
    text.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!chosen.has(name)) chosen.set(name, pick(rand, slots[name] ?? [name]));
      return chosen.get(name)!;
    });
  const userText = fill(template.user);
  const assistantText = fill(template.assistant);
  const capitalised = lang === 'en' ? assistantText.charAt(0).toUpperCase() + assistantText.slice(1) : assistantText;
  return {
    lang,
    turns: [
      { role: 'user', text: userText },
      { role: 'assistant', text: capitalised },
    ],
  };
}

/** Episode ids are unique per language only. */
const episodeRef = (episode: Episode) => `${episode.lang}/${episode.id}`;

function episodeUnits(rand: () => number, episode: Episode): Unit[] {
  const acks = episode.lang === 'en' ? englishAcks : chineseAcks;
  return episode.blocks.map((block, b) => {
    const turns = block.at(-1)?.role === 'user' ? [...block, { role: 'assistant' as const, text: pick(rand, acks) }] : block;
    return { lang: episode.lang, turns, ref: { episode: episodeRef(episode), block: b } };
  });
}

export function generateConversation(): Conversation {
  const rand = random(16);
  const episodes = [...englishEpisodes, ...chineseEpisodes];
  const firsts: Unit[] = [];
  const laters: Unit[] = [];
  for (const episode of episodes) {
    const [first, ...rest] = episodeUnits(rand, episode);
    firsts.push(first!);
    laters.push(...rest);
  }
  for (let i = 0; i < ENGLISH_FILLER_UNITS; i++) firsts.push(filler(rand, pick(rand, englishFillers), englishSlots, 'en'));
  for (let i = 0; i < CHINESE_FILLER_UNITS; i++) firsts.push(filler(rand, pick(rand, chineseFillers), chineseSlots, 'zh'));
  // Fisher-Yates over the first blocks and fillers; later blocks go after their predecessor.
  for (let i = firsts.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [firsts[i], firsts[j]] = [firsts[j]!, firsts[i]!];
  }
  const units = [...firsts];
  for (const later of laters) {
    const before = units.findIndex((u) => u.ref?.episode === later.ref!.episode && u.ref.block === later.ref!.block - 1);
    const earliest = before + LATER_BLOCK_GAP;
    const at = earliest >= units.length ? units.length : earliest + Math.floor(rand() * (units.length - earliest + 1));
    units.splice(at, 0, later);
  }

  const turns: ConversationTurn[] = [];
  const turnIds = new Map<string, string>();
  let clock = START;
  for (const unit of units) {
    clock += Math.round((8 + rand() * 16) * 3_600_000);
    unit.turns.forEach((turn, t) => {
      const id = `t${String(turns.length + 1).padStart(4, '0')}`;
      if (unit.ref) turnIds.set(`${unit.ref.episode}:${unit.ref.block}.${t}`, id);
      turns.push({ id, at: new Date(clock + t * 60_000).toISOString(), role: turn.role, lang: unit.lang, text: turn.text });
    });
  }

  const questions = episodes.flatMap((episode) =>
    episode.questions.map((q) => ({
      episode: episodeRef(episode),
      lang: episode.lang,
      text: q.text,
      gold: q.gold.map((ref) => {
        const id = turnIds.get(`${episodeRef(episode)}:${ref}`);
        if (!id) throw new Error(`${episodeRef(episode)}: no turn ${ref}`);
        return id;
      }),
    })),
  );
  return {
    generator: GENERATOR,
    now: new Date(clock + 86_400_000).toISOString(),
    turns,
    questions: questions.map((q, i) => ({
      id: `q${String(i + 1).padStart(3, '0')}`,
      lang: q.lang,
      episode: q.episode,
      split: i % 2 === 0 ? 'tune' : 'holdout',
      text: q.text,
      gold: q.gold,
    })),
  };
}

export function conversationJson(conversation: Conversation): string {
  return `${JSON.stringify(conversation, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const conversation = generateConversation();
  writeFileSync(DATA_FILE, conversationJson(conversation));
  console.log(`${conversation.turns.length} turns, ${conversation.questions.length} questions -> ${DATA_FILE}`);
}
