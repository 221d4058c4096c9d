/**
 * The classic Porter stemmer (M.F. Porter, "An algorithm for suffix stripping", 1980), written from
 * the paper, with the two departures of Porter's own reference implementation that its published
 * vocabulary reflects (and Lucene's PorterStemFilter follows): step 2 maps "bli" → "ble" and
 * "logi" → "log", and words of one or two letters are left alone. Input must be lower case.
 */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  return new PorterWord(word).stem();
}

class PorterWord {
  #b: string[];
  /** Index of the last letter of the current stem. */
  #k: number;
  /** End of the stem before the suffix `ends` last matched. */
  #j = 0;

  constructor(word: string) {
    this.#b = [...word];
    this.#k = this.#b.length - 1;
  }

  stem(): string {
    this.#step1ab();
    if (this.#k > 0) {
      this.#step1c();
      this.#step2();
      this.#step3();
      this.#step4();
      this.#step5();
    }
    return this.#b.slice(0, this.#k + 1).join('');
  }

  #isConsonant(i: number): boolean {
    const ch = this.#b[i];
    if (ch === 'a' || ch === 'e' || ch === 'i' || ch === 'o' || ch === 'u') return false;
    if (ch === 'y') return i === 0 ? true : !this.#isConsonant(i - 1);
    return true;
  }

  /** m, the number of vowel-consonant sequences in the stem b[0..j]. */
  #measure(): number {
    let n = 0;
    let i = 0;
    const j = this.#j;
    while (true) {
      if (i > j) return n;
      if (!this.#isConsonant(i)) break;
      i++;
    }
    i++;
    while (true) {
      while (true) {
        if (i > j) return n;
        if (this.#isConsonant(i)) break;
        i++;
      }
      i++;
      n++;
      while (true) {
        if (i > j) return n;
        if (!this.#isConsonant(i)) break;
        i++;
      }
      i++;
    }
  }

  #vowelInStem(): boolean {
    for (let i = 0; i <= this.#j; i++) if (!this.#isConsonant(i)) return true;
    return false;
  }

  #doubleConsonant(j: number): boolean {
    return j >= 1 && this.#b[j] === this.#b[j - 1] && this.#isConsonant(j);
  }

  /** consonant-vowel-consonant ending at i, the last consonant not w, x or y: "hop", not "snow". */
  #cvc(i: number): boolean {
    if (i < 2 || !this.#isConsonant(i) || this.#isConsonant(i - 1) || !this.#isConsonant(i - 2)) return false;
    const ch = this.#b[i];
    return ch !== 'w' && ch !== 'x' && ch !== 'y';
  }

  #ends(suffix: string): boolean {
    const length = suffix.length;
    if (length > this.#k + 1) return false;
    for (let i = 0; i < length; i++) if (this.#b[this.#k - length + 1 + i] !== suffix[i]) return false;
    this.#j = this.#k - length;
    return true;
  }

  #setTo(replacement: string): void {
    this.#b.splice(this.#j + 1, this.#b.length - this.#j - 1, ...replacement);
    this.#k = this.#j + replacement.length;
  }

  #replaceIfMeasured(replacement: string): void {
    if (this.#measure() > 0) this.#setTo(replacement);
  }

  /** Plurals and -ed / -ing: caresses → caress, ponies → poni, hopping → hop, filing → file. */
  #step1ab(): void {
    if (this.#b[this.#k] === 's') {
      if (this.#ends('sses')) this.#k -= 2;
      else if (this.#ends('ies')) this.#setTo('i');
      else if (this.#b[this.#k - 1] !== 's') this.#k--;
    }
    if (this.#ends('eed')) {
      if (this.#measure() > 0) this.#k--;
    } else if ((this.#ends('ed') || this.#ends('ing')) && this.#vowelInStem()) {
      this.#k = this.#j;
      if (this.#ends('at')) this.#setTo('ate');
      else if (this.#ends('bl')) this.#setTo('ble');
      else if (this.#ends('iz')) this.#setTo('ize');
      else if (this.#doubleConsonant(this.#k)) {
        this.#k--;
        const ch = this.#b[this.#k];
        if (ch === 'l' || ch === 's' || ch === 'z') this.#k++;
      } else {
        this.#j = this.#k;
        if (this.#measure() === 1 && this.#cvc(this.#k)) this.#setTo('e');
      }
    }
    this.#b.length = this.#k + 1;
  }

  /** Terminal y → i when the stem has a vowel: happy → happi, sky → sky. */
  #step1c(): void {
    if (this.#ends('y') && this.#vowelInStem()) this.#b[this.#k] = 'i';
  }

  #replaceFirst(pairs: ReadonlyArray<readonly [string, string]>): void {
    for (const [suffix, replacement] of pairs) {
      if (this.#ends(suffix)) {
        this.#replaceIfMeasured(replacement);
        return;
      }
    }
  }

  /** Double suffixes to single ones: relational → relate, generalization → generalize. */
  #step2(): void {
    this.#replaceFirst(step2Rules[this.#b[this.#k - 1] ?? ''] ?? []);
  }

  /** -ic-, -full, -ness etc.: hopeful → hope, goodness → good. */
  #step3(): void {
    this.#replaceFirst(step3Rules[this.#b[this.#k] ?? ''] ?? []);
  }

  /** Removes -ant, -ence etc. when m > 1: revival → reviv, adjustable → adjust. */
  #step4(): void {
    const suffixes = step4Suffixes[this.#b[this.#k - 1] ?? ''];
    if (!suffixes) return;
    const matched = suffixes.some((suffix) => {
      if (!this.#ends(suffix)) return false;
      // -ion goes only after s or t: adoption → adopt, but onion stays.
      if (suffix === 'ion') return this.#j >= 0 && (this.#b[this.#j] === 's' || this.#b[this.#j] === 't');
      return true;
    });
    if (matched && this.#measure() > 1) this.#k = this.#j;
  }

  /** A final -e when m > 1 (or m = 1 and not cvc), and -ll → -l when m > 1: probate → probat, controll → control. */
  #step5(): void {
    this.#j = this.#k;
    if (this.#b[this.#k] === 'e') {
      const m = this.#measure();
      if (m > 1 || (m === 1 && !this.#cvc(this.#k - 1))) this.#k--;
    }
    if (this.#b[this.#k] === 'l' && this.#doubleConsonant(this.#k) && this.#measure() > 1) this.#k--;
  }
}

// Keyed by the penultimate letter (step 2, step 4) or the last (step 3), as in the paper's C code.
const step2Rules: Record<string, ReadonlyArray<readonly [string, string]>> = {
  a: [['ational', 'ate'], ['tional', 'tion']],
  c: [['enci', 'ence'], ['anci', 'ance']],
  e: [['izer', 'ize']],
  l: [['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous']],
  o: [['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate']],
  s: [['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous']],
  t: [['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble']],
  g: [['logi', 'log']],
};

const step3Rules: Record<string, ReadonlyArray<readonly [string, string]>> = {
  e: [['icate', 'ic'], ['ative', ''], ['alize', 'al']],
  i: [['iciti', 'ic']],
  l: [['ical', 'ic'], ['ful', '']],
  s: [['ness', '']],
};

const step4Suffixes: Record<string, readonly string[]> = {
  a: ['al'],
  c: ['ance', 'ence'],
  e: ['er'],
  i: ['ic'],
  l: ['able', 'ible'],
  n: ['ant', 'ement', 'ment', 'ent'],
  o: ['ion', 'ou'],
  s: ['ism'],
  t: ['ate', 'iti'],
  u: ['ous'],
  v: ['ive'],
  z: ['ize'],
};
