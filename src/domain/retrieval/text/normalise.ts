// Text as the index sees it: Unicode NFKC (full-width Latin and digits
// become ASCII, compatibility forms fold), lower case, Latin diacritics
// removed (café = cafe; CJK and kana keep their marks) and typographic
// apostrophes made plain, so a query and a memory written on different
// keyboards meet.
const LATIN_WITH_MARKS = /(\p{Script=Latin})\p{Mn}+/gu;
const APOSTROPHES = /[\u2018\u2019\u02bc\uff07]/g;

export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFD').replace(LATIN_WITH_MARKS, '$1').normalize('NFC').replace(APOSTROPHES, "'");
}
