// A personal identifier that belongs to someone else: a relation word ("my
// colleague", "我同事") shortly before an e-mail address, a phone number, an
// ID number … in the same text. The subject's own customers and clients are
// not third parties here (a support ticket names its own customer).
import type { Span } from '../detection.js';

const RELATION_EN =
  /\b(?:colleague|co-?worker|friend|wife|husband|partner|mother|mom|mum|father|dad|son|daughter|brother|sister|boss|manager|neighbou?r|grandmother|grandfather|grandma|grandpa|uncle|aunt|cousin|landlord|tenant|roommate|flatmate|boyfriend|girlfriend)s?\b/gi;
const RELATION_ZH =
  /同事|朋友|老婆|妻子|丈夫|老公|爱人|妈妈|母亲|爸爸|父亲|儿子|女儿|哥哥|姐姐|弟弟|妹妹|老板|领导|邻居|室友|男朋友|女朋友|对象|爷爷|奶奶|外公|外婆|叔叔|阿姨/g;
/** How far after the relation word the identifier may start, in characters. */
const REACH = 40;

export function thirdPartySpans(text: string, identifiers: readonly Span[]): Span[] {
  const spans: Span[] = [];
  for (const m of [...text.matchAll(RELATION_EN), ...text.matchAll(RELATION_ZH)]) {
    const id = identifiers.find((s) => s.start >= m.index + m[0].length && s.start - m.index <= REACH);
    if (id) spans.push({ kind: 'personal:third_party', start: m.index, end: id.end });
  }
  return spans;
}
