import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/domain/retrieval/index.js';
import { normaliseText } from '../../../src/domain/retrieval/text/normalise.js';

describe('tokenize', () => {
  it("finds the seed's own example: 用户不接受电话回访 shares 电话 (and single characters) with 这位客户能打电话吗", () => {
    const memory = new Set(tokenize('用户不接受电话回访'));
    const query = tokenize('这位客户能打电话吗');
    expect(query.filter((t) => memory.has(t)).sort()).toEqual(['户', '电', '电话', '话']);
  });

  it('cuts CJK runs into bigrams and content unigrams, without bigrams of two function characters', () => {
    expect(tokenize('电话回访')).toEqual(['电', '电话', '话', '话回', '回', '回访', '访']);
    // every pair here is two function characters (我们, 们什, 什么): no term at all
    expect(tokenize('我们什么')).toEqual([]);
    expect(tokenize('这位')).toEqual(['这位', '位']);
  });

  it('keeps identifiers with digits whole and also gives their parts', () => {
    expect(tokenize('订单 ORD-A1B2C3D4 没发货')).toEqual([
      '订',
      '订单',
      '单',
      'ord-a1b2c3d4',
      'ord',
      'a1b2c3d4',
      '没发',
      '发',
      '发货',
      '货',
    ]);
    expect(tokenize('ticket INC-55120 at 3:15')).toEqual(['ticket', 'inc-55120', 'inc', '55120', '3:15', '3', '15']);
    expect(tokenize('flight JL44')).toEqual(['flight', 'jl44']);
  });

  it('splits mixed text without spaces between scripts', () => {
    expect(tokenize('我用Mate60手机')).toEqual(['我用', '用', 'mate60', '手', '手机', '机']);
  });

  it('stems English and drops stop words, so inflections meet', () => {
    expect(tokenize('What are the deliveries?')).toEqual(tokenize('delivery'));
    expect(tokenize('allergic')).toEqual(tokenize('allergy'));
    expect(tokenize('notifications')).toEqual(tokenize('notify'));
    expect(tokenize('Please do not call me and I will be there')).toEqual(['call']);
  });

  it('handles contractions, possessives and hyphenated words', () => {
    expect(tokenize("the user's phone")).toEqual(['user', 'phone']);
    expect(tokenize("don't ring")).toEqual(['ring']);
    expect(tokenize('e-mail')).toEqual(['email', 'mail']);
  });

  it('normalises Unicode: full-width forms, case, Latin diacritics, typographic apostrophes', () => {
    expect(tokenize('ＯＲＤ－Ａ１Ｂ２')).toEqual(tokenize('ord-a1b2'));
    expect(tokenize('Café CRÈME')).toEqual(tokenize('cafe creme'));
    expect(tokenize('user’s')).toEqual(['user']);
    expect(normaliseText('ｶﾞ')).toBe('ガ'); // kana keep their marks
  });

  it('gives nothing for text without terms', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('  ?!… the of 的了吗')).toEqual([]);
  });
});
