import { answerTypeOf, holdsAnswerType, withoutTypeWord } from '../../../ai/rerank/answerType';

describe('answer types', () => {
  it.each([
    ['How long does a lantern stay lit?', 'duration'],
    ['How often is the ledger swept?', 'duration'],
    ['At what time does the archive job start?', 'time'],
    ['Which HTTP status does a duplicate order get?', 'status'],
    ['Which route lists the open orders?', 'path'],
    ['What endpoint returns the ledger?', 'path'],
    ['Which settings turn the archive job off?', 'setting'],
    ['How many lanterns fit in a crate?', 'number'],
    ['What range does the mood score take?', 'number'],
  ])('reads %j as asking for a %s', (question, type) => {
    expect(answerTypeOf(question)).toBe(type);
  });

  it.each(['Why are lanterns lit at dusk?', 'Tell me about the ledger', 'lantern oil'])(
    'reads no answer type from %j',
    (question) => {
      expect(answerTypeOf(question)).toBeUndefined();
    },
  );

  it.each([
    ['duration', 'The nonce expires after 300 s.', true],
    ['duration', 'timeoutMs = 10_000', true],
    ['duration', 'The nonce expires later.', false],
    ['time', 'The job runs nightly at 03:30.', true],
    ['time', 'The job runs nightly.', false],
    ['status', '| POST | /orders | 201 with the order |', true],
    ['status', 'It answers with the order.', false],
    ['path', '| GET | /ledger/lines | paged lines |', true],
    ['path', 'and/or', false],
    ['setting', 'Set `LEDGER_SWEEP_MS` to change it.', true],
    ['setting', 'Set the sweep interval to change it.', false],
    ['number', 'A crate holds 12 lanterns.', true],
    ['number', 'A crate holds a dozen lanterns.', false],
  ] as const)('%s: %j holds one: %s', (type, text, holds) => {
    expect(holdsAnswerType(text, type)).toBe(holds);
  });
});

describe('the word naming the answer type', () => {
  it.each([
    ['Which admin call refills a lantern?', 'Which admin refills a lantern?'],
    ['How long does a lantern stay lit?', 'How does a lantern stay lit?'],
    ['What range does the mood score take?', 'What does the mood score take?'],
    ['Which HTTP status does a duplicate order get?', 'Which HTTP does a duplicate order get?'],
  ])('is left out of %j', (question, searched) => {
    expect(withoutTypeWord(question)).toBe(searched);
  });

  it.each(['How many lanterns fit in a crate?', 'Why are lanterns lit at dusk?'])(
    'leaves %j unchanged (no type word, or none named)',
    (question) => {
      expect(withoutTypeWord(question)).toBe(question);
    },
  );
});
