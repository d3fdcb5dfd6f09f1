// Consolidation services for query tests: the deterministic summarizer and
// the real tokenizer.
import { shadowTenantsFrom, type ConsolidationServices } from '../../../src/commands/consolidation/services.js';
import { deterministicSummarizer } from '../../../src/infrastructure/summarizer/deterministic.js';
import { loadTokenCounter } from '../../../src/infrastructure/summarizer/tokenizer.js';

export async function consolidationServices(): Promise<ConsolidationServices> {
  return {
    summarizer: deterministicSummarizer(),
    countTokens: await loadTokenCounter(),
    tokenBudget: 4000,
    shadowMode: shadowTenantsFrom(undefined),
  };
}
