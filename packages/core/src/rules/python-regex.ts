import { DocqaError } from '@docqa/plugin-api';

/** A Python `re` pattern rewritten for JavaScript, with the number of capturing groups it has. */
export interface TranslatedRegex {
  source: string;
  /** Always includes 'u'; 'i', 'm', 's' mirror the Python flags (the source does not rely on 'm' or 's'). */
  flags: string;
  captureGroups: number;
}

// Python's \w, \d and \b are Unicode-aware on str patterns; JavaScript's are ASCII even with 'u'.
// Python's \w is str.isalnum() plus '_', i.e. letters and numbers.
const WORD = '\\p{L}\\p{N}_';
const UNICODE_WORD_BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
const UNICODE_NOT_WORD_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;
// Characters JavaScript's 'u' mode accepts after a backslash as themselves.
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/');
const LEADING_FLAGS = /^\(\?([a-zA-Z]+)\)/;
const GROUP_NAME = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;

interface Modes {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  verbose: boolean;
  ascii: boolean;
}

function refuse(message: string): DocqaError {
  return new DocqaError('validation_failed', message);
}

/**
 * Translates a Python `re` pattern into an equivalent JavaScript RegExp source, or throws a
 * `validation_failed` DocqaError naming the construct when JavaScript cannot express it the same way.
 *
 * Anchors and '.' are rewritten with lookarounds so they keep Python's meaning: '^'/'$' see only '\n'
 * as a line break (JavaScript also counts '\r', U+2028, U+2029), '$' without MULTILINE also matches
 * before a final '\n', '.' never matches '\n' only. `\A` and `\Z` become start/end-of-input checks.
 */
export function translatePythonRegex(pattern: string): TranslatedRegex {
  const { modes, rest } = readLeadingFlags(pattern);
  const translator = new Translator(rest, modes);
  const source = translator.translate();
  const flags = `${modes.ignoreCase ? 'i' : ''}${modes.multiline ? 'm' : ''}${modes.dotAll ? 's' : ''}u`;
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw refuse(`The pattern does not compile: ${(error as Error).message}.`);
  }
  return { source, flags, captureGroups: translator.captureGroups };
}

/** Capturing groups of a Python pattern (escaped parentheses, classes, `(?:`, lookarounds ignored). */
export function countCaptureGroups(pattern: string): number {
  return translatePythonRegex(pattern).captureGroups;
}

function readLeadingFlags(pattern: string): { modes: Modes; rest: string } {
  const modes: Modes = { ignoreCase: false, multiline: false, dotAll: false, verbose: false, ascii: false };
  let rest = pattern;
  for (let match = LEADING_FLAGS.exec(rest); match; match = LEADING_FLAGS.exec(rest)) {
    for (const letter of match[1] ?? '') {
      if (letter === 'i') modes.ignoreCase = true;
      else if (letter === 'm') modes.multiline = true;
      else if (letter === 's') modes.dotAll = true;
      else if (letter === 'x') modes.verbose = true;
      else if (letter === 'a') modes.ascii = true;
      else if (letter === 'u')
        continue; // Unicode matching is already the default for str patterns.
      else if (letter === 'L') throw refuse('The inline flag (?L) (locale-dependent matching) is not supported.');
      else throw refuse(`Unknown inline flag "${letter}" in ${match[0]}.`);
    }
    rest = rest.slice(match[0].length);
  }
  return { modes, rest };
}

class Translator {
  captureGroups = 0;
  private readonly names = new Set<string>();
  private position = 0;
  private output = '';

  constructor(
    private readonly pattern: string,
    private readonly modes: Modes,
  ) {}

  translate(): string {
    while (this.position < this.pattern.length) this.step();
    return this.output;
  }

  private peek(offset = 0): string {
    return this.pattern.charAt(this.position + offset);
  }

  private step(): void {
    const char = this.peek();
    if (this.modes.verbose && /\s/.test(char)) {
      this.position++;
    } else if (this.modes.verbose && char === '#') {
      const newline = this.pattern.indexOf('\n', this.position);
      this.position = newline < 0 ? this.pattern.length : newline + 1;
    } else if (char === '\\') {
      this.output += this.escapeOutsideClass();
    } else if (char === '[') {
      this.characterClass();
    } else if (char === '(') {
      this.group();
    } else if (char === '*' || char === '+' || char === '?') {
      this.position++;
      this.quantifierTail(char);
    } else if (char === '{') {
      this.brace();
    } else {
      this.position++;
      this.output += this.plainCharacter(char);
    }
  }

  private plainCharacter(char: string): string {
    const { multiline, dotAll } = this.modes;
    if (char === '.') return dotAll ? '[\\s\\S]' : '[^\\n]';
    if (char === '^') return multiline ? '(?<![^\\n])' : '(?<![\\s\\S])';
    if (char === '$') return multiline ? '(?![^\\n])' : '(?=\\n?(?![\\s\\S]))';
    if (char === '}' || char === ']') return `\\${char}`; // literal in Python, a syntax error in JS 'u' mode
    return char;
  }

  /** After a quantifier: keep a lazy '?', refuse a possessive '+'. */
  private quantifierTail(quantifier: string): void {
    this.output += quantifier;
    if (this.peek() === '?') {
      this.output += '?';
      this.position++;
    } else if (this.peek() === '+') {
      throw refuse(`Possessive quantifiers such as "${quantifier}+" are not supported.`);
    }
  }

  private brace(): void {
    const match = /^\{(\d*)(,?)(\d*)\}/.exec(this.pattern.slice(this.position));
    const [whole, low = '', comma = '', high = ''] = match ?? [];
    if (!match || (low === '' && high === '')) {
      // Python reads a brace that is not a valid repetition as a literal.
      this.output += '\\{';
      this.position++;
      return;
    }
    this.position += whole?.length ?? 0;
    this.quantifierTail(`{${low === '' ? '0' : low}${comma}${high}}`);
  }

  private group(): void {
    const rest = this.pattern.slice(this.position);
    const named = /^\(\?P<([^>]*)>/.exec(rest);
    if (named) {
      const name = named[1] ?? '';
      if (!GROUP_NAME.test(name)) throw refuse(`Bad group name "${name}".`);
      if (this.names.has(name)) throw refuse(`The group name "${name}" is used twice.`);
      this.names.add(name);
      this.captureGroups++;
      this.output += `(?<${name}>`;
      this.position += named[0].length;
      return;
    }
    const reference = /^\(\?P=([^)]*)\)/.exec(rest);
    if (reference) {
      const name = reference[1] ?? '';
      if (!this.names.has(name)) throw refuse(`Unknown group name "${name}" in (?P=${name}).`);
      this.output += `\\k<${name}>`;
      this.position += reference[0].length;
      return;
    }
    const passThrough = ['(?:', '(?=', '(?!', '(?<=', '(?<!'].find((opening) => rest.startsWith(opening));
    if (passThrough) {
      this.output += passThrough;
      this.position += passThrough.length;
      return;
    }
    if (rest.startsWith('(?#')) {
      const close = this.pattern.indexOf(')', this.position);
      if (close < 0) throw refuse('Unterminated comment "(?#".');
      this.position = close + 1;
      return;
    }
    if (!rest.startsWith('(?')) {
      this.captureGroups++;
      this.output += '(';
      this.position++;
      return;
    }
    throw refuse(describeUnsupportedGroup(rest));
  }

  private characterClass(): void {
    this.output += '[';
    this.position++;
    if (this.peek() === '^') {
      this.output += '^';
      this.position++;
    }
    if (this.peek() === ']') {
      // A ']' right after the opening is a literal in Python; in JavaScript '[]' is an empty class.
      this.output += '\\]';
      this.position++;
    }
    while (this.position < this.pattern.length) {
      const char = this.peek();
      if (char === ']') {
        this.output += ']';
        this.position++;
        return;
      }
      if (char === '\\') this.output += this.escapeInsideClass();
      else {
        this.output += char === '[' ? '\\[' : char;
        this.position++;
      }
    }
    throw refuse('Unterminated character class "[".');
  }

  private escapeOutsideClass(): string {
    const letter = this.peek(1);
    const unicode = !this.modes.ascii;
    const simple: Record<string, string> = {
      A: '(?<![\\s\\S])',
      Z: '(?![\\s\\S])',
      b: unicode ? UNICODE_WORD_BOUNDARY : '\\b',
      B: unicode ? UNICODE_NOT_WORD_BOUNDARY : '\\B',
      d: unicode ? '\\p{Nd}' : '\\d',
      D: unicode ? '\\P{Nd}' : '\\D',
      w: unicode ? `[${WORD}]` : '\\w',
      W: unicode ? `[^${WORD}]` : '\\W',
    };
    const translated = simple[letter];
    if (translated !== undefined) {
      this.position += 2;
      return translated;
    }
    if (/[1-9]/.test(letter) && !/^[0-7]{3}$/.test(this.pattern.slice(this.position + 1, this.position + 4))) {
      return this.backreference();
    }
    return this.commonEscape(false);
  }

  private escapeInsideClass(): string {
    const letter = this.peek(1);
    const unicode = !this.modes.ascii;
    if (letter === 'b') {
      this.position += 2;
      return '\\x08'; // backspace inside a class, in both languages
    }
    if (unicode && 'dDw'.includes(letter)) {
      this.position += 2;
      return letter === 'w' ? WORD : letter === 'd' ? '\\p{Nd}' : '\\P{Nd}';
    }
    if (unicode && letter === 'W')
      throw refuse('\\W inside a character class is not supported; use a negated class such as [^\\w…].');
    if ('dDwW'.includes(letter)) {
      this.position += 2;
      return `\\${letter}`;
    }
    return this.commonEscape(true);
  }

  private backreference(): string {
    const digits = /^\d{1,2}/.exec(this.pattern.slice(this.position + 1))?.[0] ?? '';
    const group = Number(digits);
    if (group > this.captureGroups) throw refuse(`Invalid group reference \\${digits}.`);
    this.position += 1 + digits.length;
    return `(?:\\${group})`; // the group keeps a following digit from being read as part of the number
  }

  /** Escapes shared by both contexts: character codes, control letters and escaped punctuation. */
  private commonEscape(inClass: boolean): string {
    const letter = this.peek(1);
    const rest = this.pattern.slice(this.position + 1);
    if (letter === '') throw refuse('The pattern ends with a lone backslash.');
    const code = /^(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3})/.exec(rest)?.[0];
    if (code !== undefined) {
      this.position += 1 + code.length;
      const value = /^[0-7]/.test(code) ? parseInt(code, 8) : parseInt(code.slice(1), 16);
      if (value > 0x10ffff) throw refuse(`The escape \\${code} is not a valid code point.`);
      return `\\u{${value.toString(16)}}`;
    }
    if ('fnrtv'.includes(letter) || letter === 's' || letter === 'S') {
      this.position += 2;
      return `\\${letter}`;
    }
    if (letter === 'a') {
      this.position += 2;
      return '\\x07';
    }
    if (/[A-Za-z0-9]/.test(letter)) {
      const name = letter === 'N' ? 'Named characters \\N{…}' : `The escape \\${letter}`;
      throw refuse(
        `${name} ${/[A-Za-z]/.test(letter) ? 'is not supported' : 'is not valid here'} ` +
          '(Python regular expression syntax).',
      );
    }
    this.position += 2;
    // Python lets any punctuation be escaped; JavaScript 'u' mode only its own syntax characters.
    return JS_SYNTAX.has(letter) || (inClass && letter === '-') ? `\\${letter}` : letter;
  }
}

function describeUnsupportedGroup(rest: string): string {
  if (rest.startsWith('(?>')) return 'Atomic groups "(?>…)" are not supported.';
  if (rest.startsWith('(?(')) return 'Conditional groups "(?(…)…)" are not supported.';
  if (rest.startsWith('(?<')) return 'Named groups are written "(?P<name>…)" in Python syntax.';
  if (/^\(\?[aiLmsux-]+[:)]/.test(rest)) {
    return (
      'Inline flags are only supported at the very start of the pattern, as in ' +
      '"(?i)…"; scoped flags "(?i:…)" are not supported.'
    );
  }
  return `Unknown group construct "${rest.slice(0, 3)}".`;
}
