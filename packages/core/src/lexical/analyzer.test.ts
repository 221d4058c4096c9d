import { expect } from 'chai';
import { analyzeEnglish, termFrequencies, tokenizeWords } from './analyzer.js';
import { porterStem } from './porter-stemmer.js';

describe('Porter stemmer', () => {
  // Examples printed in Porter's 1980 paper, step by step, and stems of his published vocabulary.
  const pairs: Record<string, string> = {
    caresses: 'caress', ponies: 'poni', ties: 'ti', caress: 'caress', cats: 'cat',
    feed: 'feed', agreed: 'agre', plastered: 'plaster', bled: 'bled', motoring: 'motor', sing: 'sing',
    conflated: 'conflat', troubled: 'troubl', sized: 'size', hopping: 'hop', tanned: 'tan', falling: 'fall',
    hissing: 'hiss', fizzed: 'fizz', failing: 'fail', filing: 'file', happy: 'happi', sky: 'sky',
    relational: 'relat', conditional: 'condit', rational: 'ration', digitizer: 'digit', operator: 'oper',
    feudalism: 'feudal', decisiveness: 'decis', hopefulness: 'hope', callousness: 'callous', triplicate: 'triplic',
    formative: 'form', formalize: 'formal', electrical: 'electr', hopeful: 'hope', goodness: 'good',
    revival: 'reviv', allowance: 'allow', inference: 'infer', airliner: 'airlin', gyroscopic: 'gyroscop',
    adjustable: 'adjust', defensible: 'defens', irritant: 'irrit', replacement: 'replac', adjustment: 'adjust',
    dependent: 'depend', adoption: 'adopt', communism: 'commun', activate: 'activ', homologous: 'homolog',
    effective: 'effect', bowdlerize: 'bowdler', probate: 'probat', rate: 'rate', cease: 'ceas', controlling: 'control',
    roll: 'roll', generalization: 'gener', generalizations: 'gener', oscillators: 'oscil', knightly: 'knightli',
    // The reference implementation's departures from the paper: -bli → -ble, -logi → -log.
    sensibility: 'sensibl', analogy: 'analog', archaeology: 'archaeolog',
  };
  for (const [word, stem] of Object.entries(pairs)) {
    it(`${word} → ${stem}`, () => expect(porterStem(word)).to.equal(stem));
  }
  it('leaves words of one or two letters alone', () => {
    expect(porterStem('as')).to.equal('as');
    expect(porterStem('y')).to.equal('y');
  });
});

describe('English analyzer', () => {
  it('splits on punctuation but keeps numbers, contractions and abbreviations whole', () => {
    expect(tokenizeWords('COVID-19, 3.14 and 1,000 mg; don\'t e-mail U.S.A. x/y')).to.deep.equal(['COVID', '19', '3.14', 'and', '1,000', 'mg', "don't", 'e', 'mail', 'U.S.A', 'x', 'y']);
  });
  it('normalises with NFKC and treats each ideograph as a token', () => {
    expect(tokenizeWords('ﬁle ＡＢＣ')).to.deep.equal(['file', 'ABC']);
    expect(tokenizeWords('日本語のテキスト')).to.deep.equal(['日', '本', '語', 'の', 'テキスト']);
    expect(analyzeEnglish('Naïve Café')).to.deep.equal(['naïv', 'café']);
  });
  it('lower-cases, drops possessives and stop words, then stems', () => {
    expect(analyzeEnglish("The patient's caresses of ponies were not relational; it is the Doctor’s")).to.deep.equal(['patient', 'caress', 'poni', 'were', 'relat', 'doctor']);
    expect(analyzeEnglish('covid-19 vaccines')).to.deep.equal(['covid', '19', 'vaccin']);
  });
  it('counts term frequencies and the analysed length', () => {
    const { frequencies, length } = termFrequencies('Cells divide; the cell divided. A dividing cell!');
    expect(Object.fromEntries(frequencies)).to.deep.equal({ cell: 3, divid: 3 });
    expect(length).to.equal(6);
  });
  it('answers nothing for text of only stop words and punctuation', () => {
    expect(analyzeEnglish('the of, and -- to!')).to.deep.equal([]);
  });
});
