import { expect } from 'chai';
import type { GenerateRequest, GroundingPassage, LlmBackend } from '@docqa/plugin-api';
import { LanguageDetector } from '@docqa/core';
import { createExtractiveLlmBackend } from './backend.js';
import { extractiveLlmOptionsSchema } from './config.js';
import { answerFromPassages } from './rank-sentences.js';

const noAnswer = 'No indexed document answers this question.';

function backendWith(options: Record<string, unknown> = {}): LlmBackend {
  return createExtractiveLlmBackend(extractiveLlmOptionsSchema.parse(options));
}

function grounded(question: string, passages: GroundingPassage[], maxTokens = 200): GenerateRequest {
  return { messages: [{ role: 'user', content: question }], maxTokens, grounding: { question, passages } };
}

/** The real detector, keeping the texts it was asked about. */
class CountingDetector extends LanguageDetector {
  readonly detected: string[] = [];

  override detect(text: string): string | null {
    this.detected.push(text);
    return super.detect(text);
  }
}

const rankingOptions = extractiveLlmOptionsSchema.parse({});

async function pieces(
  backend: LlmBackend,
  request: GenerateRequest,
  signal = new AbortController().signal,
): Promise<string[]> {
  const streamed: string[] = [];
  for await (const piece of backend.generate(request, signal)) streamed.push(piece);
  return streamed;
}

async function answer(backend: LlmBackend, request: GenerateRequest): Promise<string> {
  return (await pieces(backend, request)).join('');
}

const passwords: GroundingPassage = {
  index: 1,
  title: 'Passwords',
  text: 'Passwords\n\nReset your password from the sign-in page. Passwords expire after 90 days.',
};
const invoices: GroundingPassage = {
  index: 2,
  title: 'Invoices',
  text: 'Invoices\n\nThe finance team handles invoices. Every invoice is archived for ten years in the vault. The vault is in Berlin.',
};

describe('llm-extractive: answers', () => {
  it('quotes the best sentence of the passage that answers, matching stems ("archived" / "archive")', async () => {
    const text = await answer(
      backendWith({ maxSentences: 1 }),
      grounded('How long do you archive an invoice?', [passwords, invoices]),
    );
    expect(text).to.equal('Every invoice is archived for ten years in the vault. [2]');
  });

  it('adds weaker matches in passage order and shares one citation among sentences of a passage', async () => {
    const text = await answer(backendWith(), grounded('How long are invoices archived?', [passwords, invoices]));
    expect(text).to.equal(
      'The finance team handles invoices. Every invoice is archived for ten years in the vault. [2]',
    );
  });

  it('quotes one passage only, never joining sentences of two passages into one claim', async () => {
    // The "7 hours where the document says 9": two sections that both match the question.
    const passages: GroundingPassage[] = [
      { index: 1, title: 'Zorblax-1', text: 'The cooling period of the Zorblax-1 lasts nine hours.' },
      { index: 2, title: 'Zorblax-2', text: 'The cooling period of the Zorblax-2 lasts 7 hours.' },
    ];
    const text = await answer(backendWith(), grounded('How long is the cooling period of the Zorblax-1?', passages));
    expect(text).to.equal('The cooling period of the Zorblax-1 lasts nine hours. [1]');
  });

  it('quotes a later passage when its best sentence clearly outscores the first', async () => {
    const passages: GroundingPassage[] = [
      { index: 7, title: 'Receipts', text: 'Receipts are archived for two years.' },
      { index: 3, title: 'Invoices', text: 'Invoices are archived for ten years. Archived invoices sit in the vault.' },
    ];
    const text = await answer(backendWith(), grounded('Which receipts are archived?', passages));
    expect(text).to.equal('Receipts are archived for two years. [7]');
  });

  it('analyses each passage and the question in their language (German stems, not English)', async () => {
    const passage: GroundingPassage = {
      index: 1,
      title: 'Archiv',
      text: 'Die Rechnungen liegen zehn Jahre im Tresor. Der Tresor steht in Berlin.',
    };
    const text = await answer(backendWith(), grounded('Wo liegt eine Rechnung?', [passage]));
    expect(text).to.equal('Die Rechnungen liegen zehn Jahre im Tresor. [1]');
  });

  it('analyses a passage in the language stored with its chunk, detecting only when none is stored', async () => {
    const text = 'Die Rechnungen liegen zehn Jahre im Tresor. Der Tresor steht in Berlin.';
    const asked = (language?: string | null) =>
      answer(
        backendWith(),
        grounded('Wo liegt eine Rechnung?', [
          { index: 1, title: 'Archiv', text, ...(language === undefined ? {} : { language }) },
        ]),
      );
    const quoted = 'Die Rechnungen liegen zehn Jahre im Tresor. [1]';
    expect(await asked()).to.equal(quoted);
    expect(await asked(null)).to.equal(quoted);
    expect(await asked('de')).to.equal(quoted);
    // Stored as English (as lexical search analysed it), the German stems no longer match the question's.
    expect(await asked('en')).to.equal(`${noAnswer} The closest sources: Archiv [1].`);

    // Detection runs for the question and for passages without a stored language only.
    const detector = new CountingDetector();
    const passages: GroundingPassage[] = [
      { index: 1, title: 'Archiv', text, language: 'de' },
      { index: 2, title: 'Invoices', text: 'Invoices are archived for ten years.', language: 'en' },
      { index: 3, title: 'Vault', text: 'The vault is in Berlin.', language: null },
      { index: 4, title: 'Tresor', text: 'Der Tresor steht in Berlin.' },
    ];
    const ranked = answerFromPassages('Wo liegt eine Rechnung?', passages, rankingOptions, detector);
    expect(ranked.sentences.map((sentence) => sentence.text)).to.deep.equal([
      'Die Rechnungen liegen zehn Jahre im Tresor.',
    ]);
    expect(detector.detected).to.deep.equal([
      'The vault is in Berlin.',
      'Der Tresor steht in Berlin.',
      'Wo liegt eine Rechnung?',
    ]);
  });

  it('says no document answers, naming the closest sources, when the question is mostly about something else', async () => {
    const passage: GroundingPassage = {
      index: 1,
      title: 'Zorblax manual',
      text: 'The cooling period of the Zorblax-1 lasts nine hours. Its casing is painted blue.',
    };
    const question = 'Who invented the quantum teleporter inside the Zorblax?';
    expect(await answer(backendWith(), grounded(question, [passage]))).to.equal(
      `${noAnswer} The closest sources: Zorblax manual [1].`,
    );
    // Without the floor the same passage is quoted: the floor, not the matching, says "no answer".
    expect(await answer(backendWith({ minCoverage: 0 }), grounded(question, [passage]))).to.include('[1]');
  });

  it('breaks a tie in favour of the better-retrieved passage (the lower index)', async () => {
    const passages: GroundingPassage[] = [
      { index: 2, title: 'Old policy', text: 'Invoices are archived for five years.' },
      { index: 1, title: 'Policy', text: 'Invoices are archived for ten years.' },
    ];
    const text = await answer(backendWith({ maxSentences: 1 }), grounded('Are invoices archived?', passages));
    expect(text).to.equal('Invoices are archived for ten years. [1]');
  });

  it('leaves out sentences sharing no term, too few terms, or scoring far below the best', async () => {
    const passage: GroundingPassage = {
      index: 1,
      title: 'Finance',
      text: 'The vault opens at nine. Invoices are archived for ten years. Invoices are paid monthly.',
    };
    const question = 'How long are invoices archived?';
    expect(await answer(backendWith({ minMatchedTerms: 2 }), grounded(question, [passage]))).to.equal(
      'Invoices are archived for ten years. [1]',
    );
    expect(await answer(backendWith({ minScoreRatio: 0.9 }), grounded(question, [passage]))).to.equal(
      'Invoices are archived for ten years. [1]',
    );
    expect(await answer(backendWith(), grounded(question, [passage]))).to.equal(
      'Invoices are archived for ten years. Invoices are paid monthly. [1]',
    );
  });

  it('quotes no heading that repeats the title, and no sentence of an overlapping passage', async () => {
    const passages: GroundingPassage[] = [
      { index: 1, title: 'Invoice archive', text: 'Invoice archive\n\nInvoices are archived for ten years.' },
      { index: 2, title: 'Invoice archive', text: 'Invoices are archived for ten years.\n\nInvoice archive duties' },
    ];
    const text = await answer(backendWith(), grounded('Where is the invoice archive?', passages));
    expect(text).to.equal('Invoices are archived for ten years. [1]');
  });

  it('ends table rows and list items with a period when another sentence follows them', async () => {
    const passage: GroundingPassage = {
      index: 4,
      title: 'Plans',
      text: 'Plan: Pro; Price: 10 EUR\nPlan: Team; Price: 25 EUR\n- The Pro plan price includes support',
    };
    const text = await answer(backendWith(), grounded('What is the price of the plans?', [passage]));
    expect(text).to.equal(
      'Plan: Pro; Price: 10 EUR. Plan: Team; Price: 25 EUR. The Pro plan price includes support [4]',
    );
  });

  it('answers the fixed no-answer sentence, then the closest sources, when nothing matches', async () => {
    const backend = backendWith();
    expect(await answer(backend, grounded('How long are invoices archived?', []))).to.equal(noAnswer);
    expect(await answer(backend, grounded('How long are invoices archived?', [passwords]))).to.equal(
      `${noAnswer} The closest sources: Passwords [1].`,
    );
    expect(await answer(backend, grounded('Is it the one?', [invoices])), 'a question of stop words only').to.equal(
      `${noAnswer} The closest sources: Invoices [2].`,
    );
    expect(await answer(backendWith({ noAnswerText: 'Keine Antwort.' }), grounded('Invoices?', []))).to.equal(
      'Keine Antwort.',
    );
  });

  it('streams non-empty word pieces that join back into the answer', async () => {
    const streamed = await pieces(backendWith(), grounded('How long are invoices archived?', [passwords, invoices]));
    expect(streamed.length).to.equal(16);
    for (const piece of streamed) expect(piece.trim()).to.not.equal('');
    expect(streamed[0]).to.equal('The');
    expect(streamed.at(-1)).to.equal(' [2]');
    expect(streamed.join('')).to.equal(
      'The finance team handles invoices. Every invoice is archived for ten years in the vault. [2]',
    );
  });
});

describe('llm-extractive: limits and abort', () => {
  const question = 'How long are invoices archived?';

  it('fits whole sentences within maxTokens, counting a word (and a citation) as a token', async () => {
    // Both sentences are budgeted at 5 + 1 and 10 + 1 words; the best one and its citation fit in 12.
    const streamed = await pieces(backendWith(), grounded(question, [passwords, invoices], 12));
    expect(streamed.join('')).to.equal('Every invoice is archived for ten years in the vault. [2]');
    expect(streamed.length).to.be.at.most(12);
  });

  it('cuts the best sentence with "…" when it alone is too long, keeping its citation', async () => {
    expect(await answer(backendWith(), grounded(question, [passwords, invoices], 6))).to.equal(
      'Every invoice is archived for… [2]',
    );
    expect(await answer(backendWith(), grounded(question, [passwords, invoices], 1))).to.equal('Every…');
    expect(await answer(backendWith(), grounded(question, [], 3))).to.equal('No indexed document…');
    expect(await pieces(backendWith(), grounded(question, [invoices], 0))).to.deep.equal([]);
  });

  it('yields nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await pieces(backendWith(), grounded(question, [invoices]), controller.signal)).to.deep.equal([]);
  });

  it('stops at the piece in flight when the signal aborts mid-answer', async () => {
    const controller = new AbortController();
    const received: string[] = [];
    for await (const piece of backendWith().generate(grounded(question, [invoices]), controller.signal)) {
      received.push(piece);
      if (received.length === 3) controller.abort();
    }
    expect(received).to.deep.equal(['The', ' finance', ' team']);
  });
});

describe('llm-extractive: requests without grounding', () => {
  it('answers the last user message unchanged: a no-op rewrite', async () => {
    const request: GenerateRequest = {
      messages: [
        { role: 'system', content: 'Rewrite the follow-up as a standalone question.' },
        { role: 'user', content: 'What about receipts?' },
        { role: 'assistant', content: 'Receipts are archived for two years. [1]' },
        { role: 'user', content: 'And PDF invoices, e.g. scans?' },
      ],
      maxTokens: 64,
    };
    expect(await answer(backendWith(), request)).to.equal('And PDF invoices, e.g. scans?');
  });

  it('takes the text after the last "Question:" label, cut at maxTokens without an ellipsis', async () => {
    const content =
      'Conversation:\nuser: what about receipts?\n\nQuestion: how long are PDF invoices kept in the vault?';
    expect(await answer(backendWith(), { messages: [{ role: 'user', content }], maxTokens: 64 })).to.equal(
      'how long are PDF invoices kept in the vault?',
    );
    expect(await answer(backendWith(), { messages: [{ role: 'user', content }], maxTokens: 3 })).to.equal(
      'how long are',
    );
  });

  it('answers nothing when there is no user message', async () => {
    expect(
      await pieces(backendWith(), { messages: [{ role: 'system', content: 'Classify.' }], maxTokens: 16 }),
    ).to.deep.equal([]);
  });
});
