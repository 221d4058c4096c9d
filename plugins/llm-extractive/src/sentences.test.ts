import { expect } from 'chai';
import { splitSentences } from './sentences.js';

describe('llm-extractive: splitSentences', () => {
  it('ends sentences at terminal punctuation followed by a new sentence', () => {
    expect(splitSentences('Invoices are archived. Are receipts too? Yes! See the "Retention" page.')).to.deep.equal([
      'Invoices are archived.',
      'Are receipts too?',
      'Yes!',
      'See the "Retention" page.',
    ]);
  });

  it('does not split after abbreviations, initials, decimals or versions', () => {
    expect(
      splitSentences(
        'Scans, e.g. PDF files, i.e. Most of them, are kept. Dr. Smith and J. Doe approved v2.1 on 3.5 GB disks.',
      ),
    ).to.deep.equal([
      'Scans, e.g. PDF files, i.e. Most of them, are kept.',
      'Dr. Smith and J. Doe approved v2.1 on 3.5 GB disks.',
    ]);
  });

  it('treats "No." and "p." as abbreviations only before a number', () => {
    expect(splitSentences('See No. 5 on p. 12. The answer is no. Then stop.')).to.deep.equal([
      'See No. 5 on p. 12.',
      'The answer is no.',
      'Then stop.',
    ]);
  });

  it('keeps a sentence whole when the next word is in lower case', () => {
    expect(splitSentences('Prices rose approx. five per cent. in 2023 etc. and fell.')).to.deep.equal([
      'Prices rose approx. five per cent. in 2023 etc. and fell.',
    ]);
  });

  it('joins hard-wrapped lines and keeps headings and unmarked list lines apart', () => {
    const text =
      'Retention\n\nInvoices are kept for\nten years in the vault. They are\nthen shredded by\nAcme Shredding.\nOpening hours\nMonday to Friday';
    expect(splitSentences(text)).to.deep.equal([
      'Retention',
      'Invoices are kept for ten years in the vault.',
      'They are then shredded by Acme Shredding.',
      'Opening hours',
      'Monday to Friday',
    ]);
  });

  it('makes each bullet its own unit without its marker, and splits a bullet of several sentences', () => {
    const text =
      'To export:\n- Open the portal\n* Click Export. Then wait.\n• Download the file\n1. Check it\n2) Archive it';
    expect(splitSentences(text)).to.deep.equal([
      'To export:',
      'Open the portal',
      'Click Export.',
      'Then wait.',
      'Download the file',
      'Check it',
      'Archive it',
    ]);
  });

  it('keeps table rows whole, in every form the extractors write them', () => {
    const text = 'Plan: Pro; Price: 10.50 EUR. Monthly; Users: 5\nPro | 10 | 5\n| Free | 0 | 1 |\n|---|---|---|';
    expect(splitSentences(text)).to.deep.equal([
      'Plan: Pro; Price: 10.50 EUR. Monthly; Users: 5',
      'Pro | 10 | 5',
      'Free | 0 | 1',
    ]);
  });

  it('splits at CJK full stops and drops units without letters or digits', () => {
    expect(splitSentences('東京は大きい。大阪も大きい。\n\n---\n\n***')).to.deep.equal([
      '東京は大きい。',
      '大阪も大きい。',
    ]);
  });

  it('splits at the sentence ends of every script (Arabic, Devanagari), in the passage language', () => {
    expect(splitSentences('ذهب الولد إلى المدرسة؟ نعم، ذهب.', 'ar')).to.deep.equal([
      'ذهب الولد إلى المدرسة؟',
      'نعم، ذهب.',
    ]);
    expect(splitSentences('राम घर गया। सीता बाज़ार गई।', 'hi')).to.deep.equal(['राम घर गया।', 'सीता बाज़ार गई।']);
    expect(splitSentences('Das gilt z. B. für Rechnungen. Quittungen nicht.', 'de')).to.deep.equal([
      'Das gilt z. B. für Rechnungen.',
      'Quittungen nicht.',
    ]);
  });

  it('answers nothing for empty or blank text, and collapses white space and Windows line ends', () => {
    expect(splitSentences('')).to.deep.equal([]);
    expect(splitSentences(' \n\t ')).to.deep.equal([]);
    expect(splitSentences('Invoices  are\r\narchived\t here.\r\n')).to.deep.equal(['Invoices are archived here.']);
  });
});
