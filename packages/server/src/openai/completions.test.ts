import { expect } from 'chai';
import { DocqaError } from '@docqa/plugin-api';
import { checkModel, questionAndHistory } from './completions.js';
import { openAiError } from '../http/openai-errors.js';

describe('OpenAI-compatible requests', () => {
  it('asks the last user message, with earlier user/assistant pairs as the conversation', () => {
    const parsed = questionAndHistory([
      { role: 'system', content: 'You are a pirate.' },
      { role: 'user', content: 'First?' },
      { role: 'assistant', content: 'One [1].' },
      { role: 'user', content: 'Unanswered, then a tool ran.' },
      { role: 'tool', content: '{}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And ' },
          { type: 'text', text: 'then?' },
        ],
      },
    ]);
    expect(parsed).to.deep.equal({ question: 'And then?', history: [{ query: 'First?', answer: 'One [1].' }] });
  });

  it('refuses a last message that is not a non-empty user question, and non-text parts, naming the field', () => {
    const param = (messages: Parameters<typeof questionAndHistory>[0]) => {
      try {
        questionAndHistory(messages);
      } catch (error) {
        return openAiError(error as DocqaError);
      }
      throw new Error('accepted');
    };
    expect(param([{ role: 'assistant', content: 'Hi' }])).to.deep.include({ status: 400 });
    expect(param([{ role: 'assistant', content: 'Hi' }]).body.error.param).to.equal('messages.0.role');
    expect(param([{ role: 'user', content: '   ' }]).body.error.param).to.equal('messages.0.content');
    expect(param([{ role: 'user', content: [{ type: 'image_url' }] }]).body.error.message).to.include('"image_url"');
    expect(param([{ role: 'user', content: 'x'.repeat(8001) }]).body.error.type).to.equal('invalid_request_error');
  });

  it("knows the docqa model only; errors keep their status and carry OpenAI's types", () => {
    expect(() => checkModel('docqa')).to.not.throw();
    let unknown: DocqaError | null = null;
    try {
      checkModel('gpt-4o');
    } catch (error) {
      unknown = error as DocqaError;
    }
    expect(openAiError(unknown!)).to.deep.include({ status: 404 });
    const body = openAiError(unknown!).body.error;
    expect(body).to.include({ type: 'invalid_request_error', code: 'model_not_found', param: null });
    expect(openAiError(new DocqaError('rate_limited', 'slow down')).body.error.type).to.equal('rate_limit_error');
    const unavailable = openAiError(new DocqaError('unavailable', 'no model')).body.error;
    expect(unavailable).to.include({ type: 'server_error', code: 'unavailable' });
  });
});
