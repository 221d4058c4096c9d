import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { eld } from 'eld/extrasmall';
import { eldDatabase, newEld } from './language-detection.js';

/** eld's own database, as its `eld/extrasmall` entry imports it (not in eld's exports map). */
async function eldsOwnDatabase(): Promise<{ ngrams: Record<string, unknown>; languages: unknown; type: string }> {
  const url = new URL('../ngrams/extrasmall.js', import.meta.resolve('eld/extrasmall'));
  return ((await import(url.href)) as { ngramsData: never }).ngramsData;
}

const texts = [
  'The quick brown fox jumps over the lazy dog near the riverbank every morning.',
  'Der schnelle braune Fuchs springt über den faulen Hund am Flussufer.',
  'El rápido zorro marrón salta sobre el perro perezoso cada mañana.',
  'Le renard brun rapide saute par-dessus le chien paresseux chaque matin.',
  'Быстрая коричневая лиса прыгает через ленивую собаку каждое утро.',
  '敏捷的棕色狐狸每天早上跳过懒狗。',
  'すばやい茶色の狐は毎朝怠惰な犬を飛び越えます。',
  'الثعلب البني السريع يقفز فوق الكلب الكسول كل صباح.',
  'Ο γρήγορος καφέ αλεπού πηδά πάνω από το τεμπέλικο σκυλί.',
  'Szybki brązowy lis przeskakuje nad leniwym psem każdego ranka.',
  "l'homme qu'il a vu — don't stop",
  'ok',
  '',
  '1234 5678 !!!',
];

describe('language detection', () => {
  it("reads eld's extra-small database into the same data its own entry imports", async () => {
    const own = await eldsOwnDatabase();
    const read = eldDatabase();
    expect(read.type).to.equal(own.type);
    expect(read.languages).to.deep.equal(own.languages);
    expect(Object.keys(read.ngrams)).to.deep.equal(Object.keys(own.ngrams));
    const differing = Object.keys(own.ngrams).filter(
      (ngram) => JSON.stringify(read.ngrams[ngram]) !== JSON.stringify(own.ngrams[ngram]),
    );
    expect(differing).to.deep.equal([]);
  });

  it("detects as eld's own instance does: language, scores and reliability, with and without a subset", () => {
    const ours = newEld();
    const subset = newEld();
    const theirs = eld.newInstance();
    const theirSubset = eld.newInstance();
    subset.setLanguageSubset(['en', 'de', 'fr']);
    theirSubset.setLanguageSubset(['en', 'de', 'fr']);
    for (const text of texts) {
      for (const [a, b] of [
        [ours.detect(text), theirs.detect(text)],
        [subset.detect(text), theirSubset.detect(text)],
      ] as const) {
        expect([a.language, a.getScores(), a.isReliable()], text).to.deep.equal([
          b.language,
          b.getScores(),
          b.isReliable(),
        ]);
      }
    }
  });

  it('costs the process less than 20 MB of heap, eld database included', () => {
    // Measured in a child: importing eld's database as a JavaScript literal kept about 30 MB of heap.
    const moduleUrl = new URL('./language-detection.ts', import.meta.url).href;
    const script = `
      import v8 from 'node:v8';
      const used = () => { for (let i = 0; i < 4; i++) gc(); return v8.getHeapStatistics().used_heap_size; };
      const before = used();
      const { LanguageDetector } = await import(${JSON.stringify(moduleUrl)});
      const detector = new LanguageDetector();
      detector.detect('a short text in English');
      process.stdout.write(String(used() - before));`;
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--conditions=docqa-source', '--expose-gc', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(Number(output) / 2 ** 20).to.be.within(1, 20);
  });
});
