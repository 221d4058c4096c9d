/**
 * Finds a cited passage among a PDF page's text items (pdf.js's text content, one string per
 * positioned run). Whitespace is ignored on both sides and case folded: the extractor and pdf.js cut
 * lines and words differently. A passage that runs over from or onto another page matches by the
 * longer of its start and its end found on this page. Answers the first and last item to highlight.
 */
export function findPassage(items: readonly string[], passage: string): { first: number; last: number } | null {
  const owner: number[] = [];
  let page = '';
  items.forEach((item, index) => {
    for (const char of item.toLowerCase()) {
      if (/\s/.test(char)) continue;
      page += char;
      for (let i = 0; i < char.length; i++) owner.push(index);
    }
  });
  const wanted = passage.toLowerCase().replace(/\s+/g, '');
  if (!wanted || !page) return null;
  const span = (from: number, to: number) => ({ first: owner[from]!, last: owner[Math.max(from, to - 1)]! });
  const whole = page.indexOf(wanted);
  if (whole >= 0) return span(whole, whole + wanted.length);
  // The longest start or end of the passage on this page (if a piece is on it, so is every shorter
  // piece of the same end: a binary search finds the longest), down to a length unlikely by chance.
  const longest = (piece: (length: number) => string) => {
    let [low, high] = [0, wanted.length - 1];
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (page.includes(piece(mid))) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const head = longest((length) => wanted.slice(0, length));
  const tail = longest((length) => wanted.slice(wanted.length - length));
  const minimum = Math.min(24, wanted.length);
  if (Math.max(head, tail) < minimum) return null;
  const piece = head >= tail ? wanted.slice(0, head) : wanted.slice(wanted.length - tail);
  const at = page.indexOf(piece);
  return span(at, at + piece.length);
}

/** The page holding most of the range [start, end) of the extracted text, by the content's page map. */
export function pageOfRange(
  pages: ReadonlyArray<{ page: number; char_start: number; char_end: number }>,
  start: number,
  end: number,
): number | null {
  let best: { page: number; overlap: number } | null = null;
  for (const page of pages) {
    const overlap = Math.min(end, page.char_end) - Math.max(start, page.char_start);
    if (overlap > 0 && (!best || overlap > best.overlap)) best = { page: page.page, overlap };
  }
  return best?.page ?? null;
}
