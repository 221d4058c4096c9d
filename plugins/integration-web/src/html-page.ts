import * as cheerio from 'cheerio';
import { charsetOf } from './media-types.js';

/** What a crawler needs from an HTML page: where it links, what it calls itself, its title. */
export interface HtmlPage {
  links: URL[];
  canonical: URL | undefined;
  title: string | undefined;
}

export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const charset = charsetOf(contentType) ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 is right for most of the web, and links are ASCII anyway.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Resolves a reference against the page, dropping what is not http(s) (mailto:, javascript:) and the fragment. */
export function resolveLink(reference: string, base: URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(reference.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // The fragment names a place in the same document: with it, /a#x and /a#y would be two pages.
  url.hash = '';
  return url;
}

export function parseHtmlPage(html: string, pageUrl: URL): HtmlPage {
  const $ = cheerio.load(html);
  // <base href> changes what relative links mean; it may itself be relative to the page.
  const baseHref = $('base[href]').first().attr('href');
  const base = (baseHref && resolveLink(baseHref, pageUrl)) || pageUrl;
  const links: URL[] = [];
  const seen = new Set<string>();
  $('a[href]').each((_, element) => {
    const link = resolveLink($(element).attr('href') ?? '', base);
    if (link && !seen.has(link.href)) {
      seen.add(link.href);
      links.push(link);
    }
  });
  const canonicalHref = $('link[rel~="canonical"][href]').first().attr('href');
  const canonical = canonicalHref ? resolveLink(canonicalHref, base) : undefined;
  const title = $('title').first().text().replace(/\s+/g, ' ').trim();
  return { links, canonical, title: title === '' ? undefined : title };
}
