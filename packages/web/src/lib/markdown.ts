import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Answers are model output: rendered as markdown, then sanitised, so no script, handler or style
// from an answer (or a document it quotes) runs. Images are dropped: the page loads nothing external.
const purifyOptions = {
  FORBID_TAGS: [
    'style',
    'img',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
  ],
  FORBID_ATTR: ['style', 'id', 'class'],
};

const skipInside = new Set(['CODE', 'PRE', 'A']);

/**
 * Turns `[n]` in text (not in code or links) into a link to source n when the answer has one.
 * `anchorFor` names the element id of each source.
 */
function linkCitations(root: HTMLElement, sourceCount: number, anchorFor: (n: number) => string): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const targets: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let parent = node.parentElement;
    let skip = false;
    while (parent && parent !== root) {
      if (skipInside.has(parent.tagName)) skip = true;
      parent = parent.parentElement;
    }
    if (!skip && /\[\d+\]/.test(node.textContent ?? '')) targets.push(node as Text);
  }
  for (const text of targets) {
    const fragment = document.createDocumentFragment();
    const parts = (text.textContent ?? '').split(/(\[\d+\])/);
    for (const part of parts) {
      const match = /^\[(\d+)\]$/.exec(part);
      const n = match ? Number(match[1]) : 0;
      if (match && n >= 1 && n <= sourceCount) {
        const link = document.createElement('a');
        link.href = `#${anchorFor(n)}`;
        link.className = 'citation';
        link.dataset.cite = String(n);
        link.textContent = `[${n}]`;
        link.setAttribute('aria-label', `Source ${n}`);
        fragment.append(link);
      } else if (part) fragment.append(part);
    }
    text.replaceWith(fragment);
  }
}

/** Safe HTML for an answer, with its citations linked to the sources' anchors. */
export function renderAnswer(markdown: string, sourceCount: number, anchorFor: (n: number) => string): string {
  const html = marked.parse(markdown, { async: false, gfm: true }) as string;
  const clean = DOMPurify.sanitize(html, purifyOptions) as unknown as string;
  const container = document.createElement('div');
  container.innerHTML = clean;
  for (const link of container.querySelectorAll('a[href]')) {
    link.setAttribute('rel', 'noopener noreferrer nofollow');
    link.setAttribute('target', '_blank');
  }
  if (sourceCount > 0) linkCitations(container, sourceCount, anchorFor);
  return container.innerHTML;
}
