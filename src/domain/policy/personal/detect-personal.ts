// All personal-data detectors over one text. Overlapping identifiers keep
// the one with the stronger check (an ID number or IBAN over a card number,
// a card over a phone, any of them over an address).
import { withoutOverlaps, type Span } from '../detection.js';
import { identifierSpans } from './identifiers.js';
import { sensitiveCategorySpans } from './sensitive-categories.js';
import { thirdPartySpans } from './third-party.js';

const STRENGTH: Record<string, number> = {
  'personal:cn_national_id': 0,
  'personal:iban': 0,
  'personal:email': 0,
  'personal:card_number': 1,
  'personal:phone': 2,
  'personal:postal_address': 3,
};

export function personalSpans(text: string): Span[] {
  const identifiers = withoutOverlaps(identifierSpans(text), (s) => STRENGTH[s.kind] ?? 9);
  return [...identifiers, ...sensitiveCategorySpans(text), ...thirdPartySpans(text, identifiers)].sort((a, b) => a.start - b.start);
}
