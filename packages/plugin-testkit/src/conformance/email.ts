import { expect } from 'chai';
import type { EmailMessage, EmailProvider } from '@docqa/plugin-api';

/** A message as the receiving side of an email provider's test saw it. */
export interface ReceivedEmail {
  to: string;
  subject: string;
  text: string;
}

/**
 * What an email provider's test hands the conformance suite. `start()` runs once for the suite and
 * `dispose()` after it; `received()` answers every message the test's receiving side (an SMTP
 * server, a captured log) got so far, oldest first, so each test looks only at what it added.
 */
export interface EmailConformanceSetup {
  start(): Promise<{
    provider: EmailProvider;
    /** messages the test's receiving side got, in order */
    received(): Promise<ReceivedEmail[]>;
    dispose(): Promise<void>;
  }>;
}

type Started = Awaited<ReturnType<EmailConformanceSetup['start']>>;

/** How long a sent message may take to show up at the receiving side. */
const arrivalTimeoutMs = 5_000;

/**
 * The behaviour every email plugin owes the rest of DocQA: a password reset link reaches the user
 * byte for byte, a malformed recipient is refused before anything leaves, and messages keep their order.
 */
export function describeEmailConformance(name: string, setup: EmailConformanceSetup): void {
  describe(`${name}: email conformance`, function () {
    let started: Started | null = null;

    before(async function () {
      this.timeout(120_000);
      started = await setup.start();
    });

    after(async function () {
      this.timeout(60_000);
      await started?.dispose();
      started = null;
    });

    const current = (): Started => {
      if (!started) throw new Error('setup.start() did not run');
      return started;
    };

    /** Sends, then waits until exactly `expected` new messages arrived, and answers them. */
    async function sendAndReceive(messages: EmailMessage[]): Promise<ReceivedEmail[]> {
      const { provider, received } = current();
      const before = (await received()).length;
      for (const message of messages) await provider.send(message);
      return waitForNew(received, before, messages.length);
    }

    it('delivers to, subject and text exactly, with a unicode subject and a long body holding a link', async () => {
      const message = {
        to: 'reset-user@example.com',
        subject: 'Réinitialisez votre mot de passe — 密码重置 🔑',
        text: longBodyWithResetLink('https://docqa.example.com/reset-password?token=abc&x=1'),
      };
      const [arrived, ...more] = await sendAndReceive([message]);
      expect(more, 'messages beyond the one sent').to.deep.equal([]);
      expect(arrived?.to).to.equal(message.to);
      expect(arrived?.subject).to.equal(message.subject);
      expectSameText(normaliseLineEnds(arrived?.text ?? ''), message.text);
      expect(arrived?.text).to.include('https://docqa.example.com/reset-password?token=abc&x=1');
    });

    it(
      'refuses a recipient that is not one email address ' + 'with validation_failed, before sending anything',
      async () => {
        const { provider, received } = current();
        const before = (await received()).length;
        const invalidRecipients = [
          'not-an-address',
          'user@',
          '@example.com',
          '',
          'two@example.com, three@example.com',
          'user@example.com\r\nBcc: attacker@example.com',
        ];
        for (const to of invalidRecipients) {
          const error = await provider.send({ to, subject: 'must not be sent', text: 'must not be sent' }).then(
            () => null,
            (failure: unknown) => failure,
          );
          expect(error, `send to ${JSON.stringify(to)} must fail`).to.be.an('error');
          expect(error).to.have.property('name', 'DocqaError');
          expect(error, `code for ${JSON.stringify(to)}`).to.have.property('code', 'validation_failed');
        }
        // A message sent afterwards arrives alone: nothing of the refused ones went out before it.
        const canary = { to: 'after-refusal@example.com', subject: 'after the refused ones', text: 'only this one' };
        await provider.send(canary);
        const arrived = await waitForNew(received, before, 1);
        expect(arrived.map((message) => message.subject)).to.deep.equal([canary.subject]);
      },
    );

    it('delivers two messages in the order they were sent', async () => {
      const first = { to: 'first@example.com', subject: 'first of two', text: 'one' };
      const second = { to: 'second@example.org', subject: 'second of two', text: 'two' };
      const arrived = await sendAndReceive([first, second]);
      expect(arrived.map(({ to, subject }) => ({ to, subject }))).to.deep.equal([
        { to: first.to, subject: first.subject },
        { to: second.to, subject: second.subject },
      ]);
      expect(arrived.map((message) => normaliseLineEnds(message.text))).to.deep.equal(['one', 'two']);
    });
  });
}

/**
 * Waits for `count` messages beyond the first `before`, then a moment longer so that an unexpected
 * extra message shows up in the answer instead of passing unnoticed.
 */
async function waitForNew(
  received: () => Promise<ReceivedEmail[]>,
  before: number,
  count: number,
): Promise<ReceivedEmail[]> {
  const deadline = Date.now() + arrivalTimeoutMs;
  for (;;) {
    const all = await received();
    if (all.length >= before + count) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return (await received()).slice(before);
    }
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} new message(s) within ${arrivalTimeoutMs} ms, got ${all.length - before}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Mail travels with CRLF line ends; a provider may hand them back either way. */
function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** Equal texts, or a failure that shows where they part (a diff of two long bodies is unreadable). */
function expectSameText(actual: string, expected: string): void {
  if (actual === expected) return;
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at += 1;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
  expect.fail(
    `text differs from character ${at} on (lengths ${actual.length} and ` +
      `${expected.length}): got ${around(actual)}, sent ${around(expected)}`,
  );
}

/**
 * A body that trips the usual encoders: lines over 76 characters (soft breaks in quoted-printable),
 * `=` and `&` in the link, a line starting with a dot (SMTP dot-stuffing), "From " at a line start,
 * non-ASCII text and tabs.
 */
function longBodyWithResetLink(link: string): string {
  const lines = [
    'Hello,',
    '',
    'Someone asked to reset the password of your DocQA account. Open this ' +
      `link within an hour to choose a new one: ${link}`,
    '',
    link,
    '.',
    '.a line that starts with a dot',
    'From the DocQA team — with non-ASCII: ünïcødé, 日本語, emoji 📚',
    '\tan indented line\twith tabs',
  ];
  for (let i = 1; i <= 60; i += 1) {
    lines.push(
      `Paragraph ${i}: ${'lorem ipsum dolor sit amet = consectetur & adipiscing '.repeat(3)}end of paragraph ${i}.`,
    );
  }
  lines.push('', 'If you did not ask for this, ignore this message.');
  return lines.join('\n');
}
