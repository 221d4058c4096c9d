// Every language @orama/stopwords has (Snowball's lists where Snowball has one), by its ISO 639-1 code.
import { stopwords as ar } from '@orama/stopwords/arabic';
import { stopwords as hy } from '@orama/stopwords/armenian';
import { stopwords as bg } from '@orama/stopwords/bulgarian';
import { stopwords as da } from '@orama/stopwords/danish';
import { stopwords as nl } from '@orama/stopwords/dutch';
import { stopwords as en } from '@orama/stopwords/english';
import { stopwords as fi } from '@orama/stopwords/finnish';
import { stopwords as fr } from '@orama/stopwords/french';
import { stopwords as de } from '@orama/stopwords/german';
import { stopwords as el } from '@orama/stopwords/greek';
import { stopwords as hu } from '@orama/stopwords/hungarian';
import { stopwords as hi } from '@orama/stopwords/indian';
import { stopwords as id } from '@orama/stopwords/indonesian';
import { stopwords as ga } from '@orama/stopwords/irish';
import { stopwords as it } from '@orama/stopwords/italian';
import { stopwords as ja } from '@orama/stopwords/japanese';
import { stopwords as lt } from '@orama/stopwords/lithuanian';
import { stopwords as zh } from '@orama/stopwords/mandarin';
import { stopwords as ne } from '@orama/stopwords/nepali';
import { stopwords as no } from '@orama/stopwords/norwegian';
import { stopwords as pt } from '@orama/stopwords/portuguese';
import { stopwords as ro } from '@orama/stopwords/romanian';
import { stopwords as ru } from '@orama/stopwords/russian';
import { stopwords as sr } from '@orama/stopwords/serbian';
import { stopwords as sl } from '@orama/stopwords/slovenian';
import { stopwords as es } from '@orama/stopwords/spanish';
import { stopwords as sv } from '@orama/stopwords/swedish';
import { stopwords as ta } from '@orama/stopwords/tamil';
import { stopwords as tr } from '@orama/stopwords/turkish';
import { stopwords as uk } from '@orama/stopwords/ukrainian';
import { stopwords as sa } from '@orama/stopwords/sanskrit';

/** ISO 639-1 code → its stop words from @orama/stopwords, lower-cased and NFKC-normalised as terms are. */
const lists: Record<string, readonly string[]> = {
  ar,
  hy,
  bg,
  da,
  nl,
  en,
  fi,
  fr,
  de,
  el,
  hu,
  hi,
  id,
  ga,
  it,
  ja,
  lt,
  zh,
  ne,
  no,
  pt,
  ro,
  ru,
  sr,
  sl,
  es,
  sv,
  ta,
  tr,
  uk,
  sa,
};
export const stopWordLists: Record<string, ReadonlySet<string>> = Object.fromEntries(
  Object.entries(lists).map(([language, words]) => [
    language,
    new Set(words.map((word) => word.normalize('NFKC').toLowerCase())),
  ]),
);
