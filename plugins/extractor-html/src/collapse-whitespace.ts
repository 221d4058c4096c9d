/** Runs of whitespace (newlines and non-breaking spaces included) become one space, as a browser shows them. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}
