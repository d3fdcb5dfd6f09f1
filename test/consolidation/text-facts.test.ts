// Facts read from the words (issue 15): negations with what they apply to,
// numbers with units, money, dates, times, ids and permission scopes, in
// English and Chinese, each with its canonical value and span.
import { describe, expect, it } from 'vitest';
import { extractTextFacts } from '../../src/domain/consolidation/text-facts/extract.js';
import { factChange } from '../../src/domain/consolidation/text-facts/comparison.js';
import type { TextFact } from '../../src/domain/consolidation/text-facts/fact.js';
import { negationStatus } from '../../src/domain/consolidation/text-facts/negation-status.js';
import { readClauses } from '../../src/domain/consolidation/text-facts/negations.js';

/** [kind, canonical, the text of its span] for every fact. */
function read(text: string): Array<[string, string, string]> {
  return extractTextFacts(text).map((f) => [f.kind, f.canonical, text.slice(f.span.start, f.span.end)]);
}

const only = (text: string, kind: TextFact['kind']) => extractTextFacts(text).filter((f) => f.kind === kind);
const one = (text: string, kind: TextFact['kind']) => {
  const found = only(text, kind);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('negations', () => {
  it('read with what they apply to, in English', () => {
    expect(read('Prefers SMS for logistics updates; never phone calls.')).toEqual([
      ['negation', '1|latin:phone latin:call', 'never phone calls'],
    ]);
    expect(read("Don't call after nine.")).toEqual([['negation', '1|latin:call latin:after latin:nine', "Don't call after nine"]]);
    // A cue at the end reaches back: "Phone calls: never".
    expect(read('Phone calls: never.')).toEqual([['negation', '1|latin:phone latin:call', 'Phone calls: never']]);
    // Two cues, two objects: "no refunds" once, "a receipt" twice.
    expect(read('No refunds without a receipt.').map(([, c]) => c)).toEqual(['1|latin:refund', '2|latin:receipt']);
  });

  it('read in Chinese, the longest cue first, and words that only look like one are not', () => {
    expect(read('客户不接受电话回访，只接受短信。')).toEqual([['negation', '1|cjk:电话回访', '不接受电话回访']]);
    expect(read('请勿在周末打电话')).toEqual([['negation', '1|cjk:周末打电', '勿在周末打电']]);
    expect(read('禁止退款')).toEqual([['negation', '1|cjk:退款', '禁止退款']]);
    expect(only('服务不错，特别快，别人也说没错。', 'negation')).toEqual([]);
  });

  it('a double negation counts twice, and a summary that keeps one negation flips it', () => {
    const [first, second] = only('It is not true that she never wants phone calls.', 'negation');
    expect(first).toMatchObject({ negations: 1, canonical: '1|latin:true' });
    expect(second).toMatchObject({ negations: 2, canonical: '2|latin:want latin:phone latin:call' });
    expect(negationStatus(readClauses('It is not true that she never wants phone calls.'), second as never)).toBe('stated');
    expect(negationStatus(readClauses('She never wants phone calls.'), second as never)).toBe('other_polarity');
    expect(negationStatus(readClauses('She wants phone calls.'), second as never)).toBe('other_polarity');
    expect(negationStatus(readClauses('She likes e-mail.'), second as never)).toBe('absent');
    const zh = one('不是不能退款', 'negation');
    expect(zh).toMatchObject({ negations: 2, canonical: '2|cjk:退款' });
    expect(negationStatus(readClauses('不能退款'), zh as never)).toBe('other_polarity');
  });

  it('a clause ends at a comma, so "No, she never calls" negates the calls once', () => {
    expect(one('No, she never calls.', 'negation')).toMatchObject({ negations: 1, canonical: '1|latin:call' });
    expect(only('No. 5 is not only fast but cheap.', 'negation')).toEqual([]);
  });
});

describe('numbers, units and money', () => {
  it('72 hours, 72h, 72小时 and 3 days are one value; 72 days and a bare 72 are not', () => {
    const canon = (t: string) => one(t, 'number').canonical;
    expect(canon('wait 72 hours')).toBe(canon('wait 3 days'));
    expect(canon('wait 72h')).toBe(canon('wait 3 days'));
    expect(canon('等待72小时')).toBe(canon('等待3天'));
    expect(canon('wait 72 days')).not.toBe(canon('wait 72 hours'));
    expect(canon('wait 72')).not.toBe(canon('wait 72 hours'));
    expect(canon('a 2.5 kg parcel')).toBe(canon('a 2500 g parcel'));
    // Business days do not convert to days.
    expect(canon('within 5 business days')).not.toBe(canon('within 5 days'));
  });

  it('close numbers are other values of the same dimension; a kept amount with another unit is a unit change', () => {
    const change = (a: string, b: string) => factChange(one(a, 'number'), one(b, 'number'));
    expect(change('wait 72 h', 'wait 27 h')).toBe('value_changed');
    expect(change('rated 3.5', 'rated 35')).toBe('value_changed');
    expect(change('wait 72 h', 'wait 72 d')).toBe('unit_changed');
    expect(change('wait 72 h', 'wait 72')).toBe('unit_changed');
    expect(change('wait 72 h', 'weighs 5 kg')).toBeUndefined();
    expect(change('wait 72 h', 'wait 3 d')).toBeUndefined();
  });

  it('money with its currency, before or after the amount; ids and names hold no number', () => {
    expect(read('Refund €45.90 or 45.9 EUR, not $45.90; 退款300元，共5万元。').filter(([k]) => k === 'money')).toEqual([
      ['money', 'EUR 45.9', '€45.90'],
      ['money', 'EUR 45.9', '45.9 EUR'],
      ['money', 'USD 45.9', '$45.90'],
      ['money', 'CNY 300', '300元'],
      ['money', 'CNY 50000', '5万元'],
    ]);
    expect(factChange(one('€45.90', 'money'), one('€54.90', 'money'))).toBe('value_changed');
    expect(factChange(one('€45.90', 'money'), one('$45.90', 'money'))).toBe('unit_changed');
    expect(only('shop-31 and o120 and c-1', 'number')).toEqual([]);
    expect(read('3-5 business days, 15% off').map(([, , t]) => t)).toEqual(['3', '5 business days', '15%']);
  });
});

describe('dates, times, ids and permissions', () => {
  it('dates in many forms have one canonical form; a date without a year keeps none', () => {
    const canon = (t: string) => one(t, 'date').canonical;
    for (const t of ['on 2026-07-15', 'on 2026/7/15', 'on 15 July 2026', 'on July 15th, 2026', 'on Jul 15 2026', '2026年7月15日前']) {
      expect(canon(t)).toBe('2026-07-15');
    }
    expect(canon('by 7月15日')).toBe('--07-15');
    expect(canon('by 3 May')).toBe('--05-03');
    expect(canon('on 15/07/2026')).toBe('2026-07-15');
    expect(only('you may 5 times', 'date')).toEqual([]);
  });

  it('times of day in 12- and 24-hour and Chinese forms', () => {
    const canon = (t: string) => one(t, 'time').canonical;
    expect(canon('after 9pm')).toBe('21:00');
    expect(canon('after 21:00')).toBe('21:00');
    expect(canon('晚上9点以后')).toBe('21:00');
    expect(canon('下午3点半')).toBe('15:30');
    expect(canon('at 9:30 a.m.')).toBe('09:30');
  });

  it('ids are exact strings of their kind', () => {
    expect(
      read('ORD-A1B2C3D4, ticket #48213, TCK-88231, INV-2026-0042, rule R001, +49 30 5550 1234, li.wei@example.com').map(([, c]) => c),
    ).toEqual(['ORD-A1B2C3D4', '#48213', 'TCK-88231', 'INV-2026-0042', 'R001', '+493055501234', 'li.wei@example.com']);
    expect(read('订单ORD-ZX81KQ20已发货')).toEqual([['identifier', 'ORD-ZX81KQ20', 'ORD-ZX81KQ20']]);
    expect(factChange(one('ORD-A1B2C3D4', 'identifier'), one('ORD-A1B2C3D5', 'identifier'))).toBe('value_changed');
    expect(factChange(one('ORD-A1B2C3D4', 'identifier'), one('INV-2026-0042', 'identifier'))).toBeUndefined();
    // Memory and conflict ids (UUIDs) are no facts of the words.
    expect(read('cf-5f0b8c2e-6d1a-4e3f-9a7c-123456789012 on delivery.city')).toEqual([]);
  });

  it('permission scopes', () => {
    expect(read('Give read-only access, orders:read and write access; 只读；管理员权限').map(([, c]) => c)).toEqual([
      'read-only',
      'orders:read',
      'write',
      'read-only',
      'admin',
    ]);
  });
});
