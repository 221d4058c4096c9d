import { describe, it } from 'mocha';
import { expect } from 'chai';
import { findPassage, pageOfRange } from './find-passage';

// pdf.js cuts a page's text into positioned runs, not where the extractor cut lines and words.
const items = ['Chapter 2', '', 'The Zorblax-1 cooling', ' period lasts', 'nine hours.', 'Next topic here.'];

describe("web: finding a cited passage in a PDF page's text items", () => {
  it('finds it across items, whatever the whitespace and case', () => {
    expect(findPassage(items, 'the zorblax-1  cooling period\nlasts nine hours.')).to.deep.equal({ first: 2, last: 4 });
  });

  it('finds the part on this page of a passage that runs over from the page before or onto the next', () => {
    const fromBefore = 'This sentence ended the previous page and is long enough. The Zorblax-1 cooling period lasts';
    expect(findPassage(items, fromBefore)).to.deep.equal({ first: 2, last: 3 });
    const ontoNext = 'nine hours. Next topic here. And this continues on the page after, long enough to count.';
    expect(findPassage(items, ontoNext)).to.deep.equal({ first: 4, last: 5 });
  });

  it('answers null when the passage is not on the page', () => {
    expect(findPassage(items, 'Invoices are archived for ten years in the finance vault.')).to.equal(null);
    expect(findPassage(items, '   ')).to.equal(null);
  });

  it('picks the page holding most of a range', () => {
    const pages = [
      { page: 1, char_start: 0, char_end: 100 },
      { page: 2, char_start: 101, char_end: 300 },
    ];
    expect(pageOfRange(pages, 90, 250)).to.equal(2);
    expect(pageOfRange(pages, 10, 20)).to.equal(1);
    expect(pageOfRange([], 10, 20)).to.equal(null);
  });
});
