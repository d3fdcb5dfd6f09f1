// English words to terms: Porter's stemmer (the `stemmer` package), then a
// final "i" (Porter's y->i) is dropped so that allergy/allergic,
// notify/notification and city/cities meet on one stem.
import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

/** The term of one lower-case word, or undefined for a stop word or a single letter. */
export function englishTerm(word: string): string | undefined {
  if (ENGLISH_STOP_WORDS.has(word)) return undefined;
  if (/^\d+$/.test(word)) return word;
  if (word.length < 2) return undefined;
  if (/\d/.test(word)) return word; // jl44, a1b2c3d4: identifiers are not stemmed
  const stem = stemmer(word);
  return stem.length > 3 && stem.endsWith('i') ? stem.slice(0, -1) : stem;
}
