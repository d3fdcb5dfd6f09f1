// A set of terms in 32 bits (each term sets the bit its hash names), kept
// with each document's statement terms: near-duplicates and diversity
// compare documents pairwise, and two signatures bound the Jaccard
// similarity of their sets from above without looking at a term. A bit
// one set has and the other lacks is a term of the one that the other does
// not hold, so shared terms number at most the set's size less those bits.
// Only ever a bound: where it cannot rule a pair out, the sets are compared.

/** FNV-1a over the term's UTF-16 code units; its top 5 bits pick the bit. */
function bitOf(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return 1 << (h >>> 27);
}

export function termSignature(terms: Iterable<string>): number {
  let signature = 0;
  for (const term of terms) signature |= bitOf(term);
  return signature;
}

function bitCount(bits: number): number {
  let n = bits - ((bits >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * At least the Jaccard similarity of two sets of `sizeA` and `sizeB` terms
 * with these signatures, computed as jaccard() does (shared / (|a| + |b| -
 * shared)) with the most terms they could share: division rounds
 * monotonically, so a bound below a threshold means the similarity is too.
 */
export function jaccardAtMost(sizeA: number, signatureA: number, sizeB: number, signatureB: number): number {
  if (sizeA === 0 || sizeB === 0) return 0;
  const shared = Math.min(sizeA - bitCount(signatureA & ~signatureB), sizeB - bitCount(signatureB & ~signatureA));
  return shared <= 0 ? 0 : shared / (sizeA + sizeB - shared);
}
