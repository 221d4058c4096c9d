import { expect } from 'chai';
import {
  analyze,
  analyzeChunk,
  analyzeQuery,
  englishStopWords,
  ideographicBigrams,
  segmentWords,
  tokenizeWords,
} from './analyzer.js';
import { LanguageDetector } from './language-detection.js';

const detector = new LanguageDetector();

describe('lexical analyzer', () => {
  it('segments words by Unicode rules: numbers, contractions and abbreviations whole, punctuation dropped', () => {
    expect(tokenizeWords("COVID-19, 3.14 and 1,000 mg; don't e-mail U.S.A. x/y")).to.deep.equal([
      'COVID',
      '19',
      '3.14',
      'and',
      '1,000',
      'mg',
      "don't",
      'e',
      'mail',
      'U.S.A',
      'x',
      'y',
    ]);
  });
  it('splits scripts written without spaces into words (ICU dictionaries), not characters', () => {
    // The exact cut of 北京大学 depends on the ICU version Node.js ships; words, not characters.
    expect(tokenizeWords('我们在北京大学学习', 'zh')).to.include.members(['我们', '在', '学习']);
    expect(tokenizeWords('ภาษาไทยง่ายนิดเดียว', 'th').length).to.be.greaterThan(2);
  });
  it('finds the same words as Intl.Segmenter in scripts with spaces, without its cost', () => {
    // Identical on SciFact's 5,183 abstracts and XQuAD's en, de and ar paragraphs and questions too.
    const texts = [
      "Results: We found (p<0.05) that IL-6's level rose 3.14-fold; 1,000 mg/kg, 1⁄2 dose, U.S.A. don't e-mail",
      'بلغ عدد السكان 22،338،618 نسمة في عام ١٩٩٩، وهو رقم قياسي.',
      'Die Einwohnerzahl stieg auf 1.234.567 – ein Rekord für Zürich’s Altstadt.',
      'Население: 12 655 050 человек (2021), Москва — столица.',
      'Τα αποτελέσματα δείχνουν ότι η θεραπεία ήταν αποτελεσματική.',
      'यह एक परीक्षण वाक्य है, जिसमें हिंदी के शब्द हैं।',
      'snake_case, soft\u00ADhyphen and a lone _ underscore',
    ];
    for (const text of texts)
      expect(tokenizeWords(text), text).to.deep.equal(segmentWords(text.normalize('NFKC'), null));
  });
  it('normalises with NFKC and folds case', () => {
    expect(tokenizeWords('ﬁle ＡＢＣ')).to.deep.equal(['file', 'ABC']);
    expect(analyze('ＡＢＣ Straße', null)).to.deep.equal(['abc', 'straße']);
  });
  it("drops the language's stop words and applies its Snowball stemmer", () => {
    expect(analyze("The patient's caresses of ponies were not relational generalizations", 'en')).to.deep.equal([
      'patient',
      'caress',
      'poni',
      'relat',
      'general',
    ]);
    expect(analyze('Die Häuser der Katzen und die laufenden Hunde', 'de')).to.deep.equal([
      'haus',
      'katz',
      'laufend',
      'hund',
    ]);
    expect(analyze('الكتاب في المكتبات', 'ar')).to.deep.equal(['كتاب', 'مكتب']);
    // Stop words leave the words; the bigrams beside them (next test) keep every character pair.
    expect(analyze('我们在学习', 'zh')).to.deep.equal(['学习', '我们', '们在', '在学', '学习']);
  });
  it('splits a word between its letters and digits', () => {
    expect(analyze('the 1970s, covid19 and CO2', 'en')).to.deep.equal(['1970', 's', 'covid', '19', 'co', '2']);
    // The conjunction written onto a number ("and 2010") leaves the number a term of its own.
    expect(analyze('و2010', 'ar')).to.include('2010');
    expect(tokenizeWords('covid19 3.14')).to.deep.equal(['covid19', '3.14']);
  });
  it('stems a stem again until it no longer changes', () => {
    // One Snowball pass: مشطيات → مشطيا; its own stem is مشط, as for المشطيات.
    expect(analyze('مشطيات المشطيات', 'ar')).to.deep.equal(['مشط', 'مشط']);
    // تكتيكات → تكتيكا against التكتيك → تكتيك: one term once both reach their fixed point.
    const [plural, singular] = analyze('تكتيكات التكتيك', 'ar');
    expect(plural).to.equal(singular);
  });
  it('adds the character bigrams of each Han or Kana run beside the words, by script, not language', () => {
    // "洛杉矶公羊队" (a name ICU's dictionary cuts its own way) shares "公羊" with a text that has it alone.
    for (const language of ['zh', 'ja', null]) {
      expect(analyze('洛杉矶公羊队', language), String(language)).to.include.members([
        '洛杉',
        '杉矶',
        '矶公',
        '公羊',
        '羊队',
      ]);
    }
    expect(analyze('カタカナ,漢字', 'ja')).to.include.members(['カタ', 'タカ', 'カナ', '漢字']);
    expect(ideographicBigrams('一 二三四')).to.deep.equal(['二三', '三四']);
    expect(ideographicBigrams('𠀀𠀁')).to.deep.equal(['𠀀𠀁']);
    expect(analyze('Die Häuser der Katzen', 'de')).to.deep.equal(['haus', 'katz']);
  });
  it('leaves the bigrams out when asked for words alone (sentence ranking)', () => {
    expect(analyze('我们在学习', 'zh', { bigrams: false })).to.deep.equal(['学习']);
    const terms = analyzeQuery('洛杉矶公羊队', detector, ['zh'], { bigrams: false });
    expect([...terms.keys()]).to.not.include('杉矶');
  });
  it('analyses a language without rules by segmentation and case folding alone', () => {
    expect(analyze('Hello Wörld', 'xx')).to.deep.equal(['hello', 'wörld']);
  });
  it('answers nothing for text of only stop words and punctuation', () => {
    expect(analyze('the of, and -- to!', 'en')).to.deep.equal([]);
  });
  it('keeps an English stop word list for English-only heuristics', () => {
    expect(englishStopWords.has('the')).to.equal(true);
  });
});

describe('language detection', () => {
  const samples: Record<string, string> = {
    en: 'The committee approved the budget for the new hospital after a long debate about its cost.',
    de: 'Der Ausschuss hat den Haushalt für das neue Krankenhaus nach einer langen Debatte genehmigt.',
    zh: '委员会在就费用进行了长时间辩论之后批准了新医院的预算。',
    ar: 'وافقت اللجنة على ميزانية المستشفى الجديد بعد نقاش طويل حول تكلفته.',
  };
  for (const [language, text] of Object.entries(samples)) {
    it(`tells ${language}`, () => expect(detector.detect(text)).to.equal(language));
  }
  it('does not guess on a text too short to tell', () => {
    expect(detector.detect('ok')).to.equal(null);
  });
  it('answers only the allowed languages when restricted', () => {
    const restricted = new LanguageDetector(['en', 'fr']);
    expect(restricted.detect(samples.de as string)).to.not.equal('de');
  });
  it("gives a chunk too short to tell its document's language", () => {
    expect(detector.detectChunks(['Kapitel 3', samples.de as string, 'ok'])).to.deep.equal(['de', 'de', 'de']);
    expect(detector.detectChunks(['ok', '42'])).to.deep.equal([null, null]);
  });
  it('counts a chunk’s terms in its language', () => {
    const { language, frequencies, length } = analyzeChunk(
      'Die Katzen laufen. Eine Katze lief mit den Katzen nach Hause.',
      'de',
    );
    expect(language).to.equal('de');
    expect(frequencies.get('katz')).to.equal(3);
    expect(length).to.equal([...frequencies.values()].reduce((a, b) => a + b, 0));
  });
});

describe('query analysis', () => {
  it('analyses a query in its language when the corpus holds it', () => {
    const terms = analyzeQuery('Wie viele Häuser hat die Stadt gebaut?', detector, ['de', 'en']);
    expect([...terms.keys()]).to.include('haus');
    expect([...terms.keys()]).to.not.include('häuser');
  });
  it("ORs the analyses under each of the corpus's languages when the query is too short to tell", () => {
    const terms = analyzeQuery('Häuser', detector, ['de', 'en']);
    expect(terms).to.deep.equal(
      new Map([
        ['haus', 1],
        ['häuser', 1],
      ]),
    );
  });
  it('counts a term once, however often the query writes it and however many analyses produce it', () => {
    expect(analyzeQuery('Tokyo Tokyo', detector, ['de', 'en']).get('tokyo')).to.equal(1);
    const terms = analyzeQuery('How many seconds were left in the game that won the game?', detector, ['en']);
    expect(terms.get('game')).to.equal(1);
  });
});
