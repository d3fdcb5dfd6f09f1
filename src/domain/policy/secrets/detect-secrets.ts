// All secret detectors over one text. Where findings overlap, the surest
// kind is kept: a provider format over a structural one (JWT, private key),
// over a labelled shape (password, assignment, bearer, URL), over entropy.
import { withoutOverlaps, type Span } from '../detection.js';
import { scanAll } from '../pattern-scan.js';
import { CREDENTIAL_SHAPES } from './credential-shapes.js';
import { highEntropySpans } from './high-entropy.js';
import { jwtSpans } from './jwt.js';
import { PRIVATE_KEY_PATTERNS } from './private-key.js';
import { PROVIDER_PATTERNS } from './provider-tokens.js';

const SURENESS: Record<string, number> = {
  'secret:jwt': 1,
  'secret:private_key': 1,
  'secret:url_credentials': 2,
  'secret:credential_in_url': 2,
  'secret:password': 3,
  'secret:credential_assignment': 3,
  'secret:bearer_token': 3,
  'secret:high_entropy': 4,
};

export function secretSpans(text: string): Span[] {
  const found = [
    ...scanAll(text, PROVIDER_PATTERNS),
    ...jwtSpans(text),
    ...scanAll(text, PRIVATE_KEY_PATTERNS),
    ...scanAll(text, CREDENTIAL_SHAPES),
    ...highEntropySpans(text),
  ];
  return withoutOverlaps(found, (span) => SURENESS[span.kind] ?? 0);
}
