// Words that carry no retrieval signal. English: the usual function words
// (NLTK's list, with the contraction stems it has), plus the question words
// a query starts with. Chinese: function characters; a CJK unigram that is
// one of them is not a term, nor is a bigram made of two of them (什么, 我们,
// 可以, 没有 …), while a bigram with one content character stays (这位 is
// noise, 电话 is not: both keep their chance, IDF sorts them).
const ENGLISH = `a about above after again against all am an and any are aren as at be because been before being below
between both but by can couldn d did didn do does doesn doing don down during each few for from further had hadn has
hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself just ll m ma me
mightn more most mustn my myself needn no nor not now o of off on once only or other our ours ourselves out over own re
s same shan she should shouldn so some such t than that the their theirs them themselves then there these they this
those through to too under until up ve very was wasn we were weren what when where which while who whom why will with
won wouldn y you your yours yourself yourselves could would might must shall may also let lets please whats`;

const CHINESE =
  '的了吗呢吧啊呀么嘛哦嗯啦是在我你您他她它们这那个和与就都也很还又把被给让对从到说要会能可以有没不一上下里中之而及其或等着过得地什怎哪谁几';

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH.split(/\s+/));
export const CHINESE_STOP_CHARACTERS: ReadonlySet<string> = new Set(CHINESE);
