// The systems compared over the same turns: memledger's retrieval (the
// whole pipeline: signals, fusion, rerank, duplicates, diversity), plain
// BM25 (minisearch with its default tokenizer and BM25 parameters: the
// baseline), and minisearch with memledger's tokenizer but nothing else
// (to tell what the tokenizer gives from what the rest gives).
import MiniSearch from 'minisearch';
import {
  buildRetrievalIndex,
  retrieve,
  requireRetrievalQuery,
  tokenize,
  type RetrievalDocument,
} from '../../src/domain/retrieval/index.js';
import type { RetrievalPolicy } from '../../src/domain/retrieval/index.js';
import type { Conversation, ConversationTurn } from './generate.js';
import type { Ranking } from './metrics.js';

export interface System {
  readonly name: string;
  /** Builds once, then answers each question with a ranking of at least `depth` hits. */
  readonly prepare: (conversation: Conversation) => (question: string, depth: number) => Ranking;
}

/** A turn as a memory: an episodic entry, the user's own words or the assistant's (a model's). */
export function turnDocument(turn: ConversationTurn): RetrievalDocument {
  return {
    id: turn.id,
    kind: 'episodic',
    key: 'conversation.turn',
    content: turn.text,
    trust: turn.role === 'user' ? 'user_assertion' : 'model_inference',
    confidence: null,
    sensitivity: 'normal',
    recordedAt: turn.at,
  };
}

export function memledgerSystem(policy?: RetrievalPolicy): System {
  return {
    name: 'memledger retrieval',
    prepare: (conversation) => {
      const index = buildRetrievalIndex(conversation.turns.map(turnDocument));
      return (question, depth) =>
        retrieve(index, requireRetrievalQuery({ query: question, topK: depth }), {
          now: conversation.now,
          ...(policy ? { policy } : {}),
        }).hits.map((hit) => (hit.type === 'memory' ? hit.members : hit.sides.map((s) => s.id)));
    },
  };
}

function minisearchSystem(
  name: string,
  options: { tokenize?: (text: string) => string[]; processTerm?: (term: string) => string },
): System {
  return {
    name,
    prepare: (conversation) => {
      const index = new MiniSearch<ConversationTurn>({ fields: ['text'], ...options });
      index.addAll(conversation.turns);
      return (question, depth) =>
        index
          .search(question)
          .slice(0, depth)
          .map((r) => [r.id as string]);
    },
  };
}

export const plainBm25System = minisearchSystem('plain BM25 (minisearch defaults)', {});

export const tokenizedBm25System = minisearchSystem('BM25 with memledger tokenizer only', { tokenize, processTerm: (t) => t });
