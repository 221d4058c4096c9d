import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { estimateTokens, fitToBudget } from './token-budget.js';

/** One "token" per word: easy to reason about in these tests. */
const words = async (text: string) => text.split(/\s+/).filter(Boolean).length;
const passage = (name: string, length: number) => ({
  title: name,
  path: `/${name}.txt`,
  text: Array.from({ length }, (_, i) => `${name}${i}`).join(' '),
});

describe('fitToBudget', () => {
  it('keeps everything and reports null when the prompt fits', async () => {
    const outcome = await fitToBudget({
      limit: 4000,
      maxAnswerTokens: 500,
      question: 'what is kept?',
      passages: [passage('a', 50), passage('b', 50)],
      history: [{ query: 'hi', answer: 'hello' }],
      count: words,
    });
    expect(outcome.report).to.equal(null);
    expect(outcome.passages).to.have.lengthOf(2);
    expect(outcome.history).to.have.lengthOf(1);
    expect(outcome.reservedCompletion).to.equal(500);
  });

  it('drops the lowest-relevance passages first and counts them in chunks_dropped', async () => {
    const passages = [passage('best', 100), passage('second', 100), passage('third', 100), passage('worst', 100)];
    const outcome = await fitToBudget({
      limit: 400,
      maxAnswerTokens: 1000,
      question: 'which ones stay?',
      passages,
      history: [],
      count: words,
    });
    // A quarter of 400 is reserved for the answer; 300 leave room for two passages of ~104 words plus the system prompt.
    expect(outcome.reservedCompletion).to.equal(100);
    expect(outcome.passages.map((kept) => kept.title)).to.deep.equal(['best', 'second']);
    expect(outcome.report).to.deep.include({
      limit: 400,
      reserved_completion: 100,
      chunks_dropped: 2,
      history_turns_dropped: 0,
    });
    expect(outcome.report!.estimated_prompt).to.be.at.most(300).and.equal(outcome.estimatedPrompt);
  });

  it('drops the oldest turns only after every passage that could go', async () => {
    const history = [
      { query: 'first question', answer: Array.from({ length: 120 }, () => 'old').join(' ') },
      { query: 'second question', answer: 'short answer' },
    ];
    const outcome = await fitToBudget({
      limit: 300,
      maxAnswerTokens: 75,
      question: 'follow up?',
      passages: [passage('only', 120)],
      history,
      count: words,
    });
    expect(outcome.passages).to.deep.equal([]);
    expect(outcome.history.map((turn) => turn.query)).to.deep.equal(['second question']);
    expect(outcome.report).to.deep.include({ chunks_dropped: 1, history_turns_dropped: 1 });
  });

  it('refuses with 422 a question that cannot fit even alone', async () => {
    const question = Array.from({ length: 400 }, () => 'word').join(' ');
    const failure = await fitToBudget({
      limit: 256,
      maxAnswerTokens: 64,
      question,
      passages: [],
      history: [],
      count: words,
    }).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(DocqaError);
    expect((failure as DocqaError).code).to.equal('validation_failed');
    expect((failure as DocqaError).message).to.include('256');
  });
});

describe('estimateTokens', () => {
  it('is zero for nothing, about four characters a token for prose, and never fewer tokens than words', () => {
    expect(estimateTokens('')).to.equal(0);
    expect(estimateTokens('Invoices are archived for ten years in the finance vault.')).to.be.within(10, 16);
    expect(estimateTokens('a b c d e f g h')).to.equal(8);
    // Other scripts count one token per character rather than a quarter.
    expect(estimateTokens('請求書は十年間保管されます')).to.equal(13);
  });
});
