// JSON Web Tokens, validated by structure rather than by look: three
// base64url parts whose first two decode to JSON objects, the header naming
// an algorithm. An unsigned token (alg "none") is still a bearer credential.
import type { Span } from '../detection.js';
import { decodeBase64Text } from './base64.js';

const JWT = /(?<![A-Za-z0-9_-])(eyJ[A-Za-z0-9_-]{2,})\.(eyJ[A-Za-z0-9_-]{2,})\.([A-Za-z0-9_-]*)(?![A-Za-z0-9_-])/g;

function jsonObject(part: string): Record<string, unknown> | undefined {
  const text = decodeBase64Text(part);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function isJwt(header: string, payload: string, signature: string): boolean {
  const head = jsonObject(header);
  if (!head || typeof head.alg !== 'string' || !jsonObject(payload)) return false;
  return head.alg.toLowerCase() === 'none' || signature.length >= 16;
}

export function jwtSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(JWT)) {
    if (isJwt(m[1]!, m[2]!, m[3]!)) spans.push({ kind: 'secret:jwt', start: m.index, end: m.index + m[0].length });
  }
  return spans;
}
