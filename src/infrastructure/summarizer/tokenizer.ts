// Token counts with a real tokenizer: cl100k_base from js-tiktoken, whose
// ranks ship inside the package (no download at run time). Loaded once per
// process, on first use (the ranks take a moment to parse).
import { Tiktoken } from 'js-tiktoken/lite';
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';

let encoder: Promise<Tiktoken> | undefined;

export const TOKENIZER = 'cl100k_base';

/** A token counter (synchronous once loaded). */
export async function loadTokenCounter(): Promise<CountTokens> {
  encoder ??= import('js-tiktoken/ranks/cl100k_base').then((ranks) => new Tiktoken(ranks.default));
  const loaded = await encoder;
  return (text: string) => (text.length === 0 ? 0 : loaded.encode(text).length);
}
