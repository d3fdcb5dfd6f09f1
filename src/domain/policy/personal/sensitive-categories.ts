// Special categories of personal data (GDPR art. 9): health, religion,
// sexuality, political opinion, by the words that name them, English and
// Chinese. They raise an entry's sensitivity; a model may not infer them
// (seed 001 I: no automatic sensitive profiling), which the policy enforces.
import type { PersonalKind, Span } from '../detection.js';
import { anyMatches } from '../any-match.js';

const english = (words: string) => new RegExp(`\\b(?:${words})\\b`, 'gi');
const chinese = (words: string) => new RegExp(words, 'g');

export const SENSITIVE_CATEGORIES: ReadonlyArray<[PersonalKind, RegExp]> = [
  [
    'personal:health',
    english(
      'pregnan(?:t|cy)|depressed|depression|diabet(?:es|ic)|cancer|tumou?r|HIV|hepatitis|autis(?:m|tic)|ADHD|bipolar|schizophreni\\w*|' +
        "anxiety disorder|dementia|alzheimer'?s|epilep\\w+|asthma\\w*|chemotherapy|diagnosed|miscarriage|mental illness|eating disorder|" +
        'suicid\\w*|disabilit(?:y|ies)',
    ),
  ],
  [
    'personal:health',
    chinese(
      '怀孕|孕期|抑郁|焦虑症|糖尿病|癌|肿瘤|艾滋|乙肝|肝炎|自闭症|多动症|双相|精神分裂|精神疾病|心理疾病|痴呆|癫痫|哮喘|化疗|确诊|病史|残疾|流产|自杀',
    ),
  ],
  [
    'personal:religion',
    english(
      'religio(?:n|us)|muslim|islam(?:ic)?|christian(?:ity)?|catholic|jewish|judaism|hindu(?:ism)?|buddhis[tm]|sikh|atheist|mormon|evangelical',
    ),
  ],
  ['personal:religion', chinese('宗教|信仰|穆斯林|伊斯兰|基督|天主教|佛教徒|信佛|犹太|印度教|无神论')],
  ['personal:sexuality', english('gay|lesbian|bisexual|homosexual|transgender|queer|sexual orientation|LGBT\\w*')],
  ['personal:sexuality', chinese('同性恋|双性恋|跨性别|性取向')],
  [
    'personal:politics',
    english(
      'political (?:views?|opinions?|leaning|affiliation|party)|democrats?|republicans?|communist|left-wing|right-wing|trade union member',
    ),
  ],
  ['personal:politics', chinese('政治倾向|政治立场|政治观点|党员|政党|左派|右派')],
];

const EXPRESSIONS = SENSITIVE_CATEGORIES.map(([, re]) => re);

export function sensitiveCategorySpans(text: string): Span[] {
  if (!anyMatches(text, EXPRESSIONS)) return [];
  return SENSITIVE_CATEGORIES.flatMap(([kind, re]) =>
    [...text.matchAll(re)].map((m): Span => ({ kind, start: m.index, end: m.index + m[0].length })),
  );
}
