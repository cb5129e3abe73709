import { describe, expect, it } from 'vitest';
import { detectAbstention } from '../../../src/generation/abstain.js';

describe('detectAbstention: English', () => {
  it.each([
    ["I don't know how often limits reset.", "I don't know"],
    ['I don’t know.', "I don't know"],
    ['I DON’T KNOW', "I don't know"],
    ['Sorry, that is not in the provided context.', 'not in the provided context'],
    ["I couldn't find anything about refunds.", "I couldn't find"],
    ['The documents contain no information about webhooks.', 'no information about'],
    ['I cannot answer that from these passages.', 'cannot answer'],
    ['I do not\nknow.', 'I do not know'],
  ])('abstains on %j (matches %j)', (answer, phrase) => {
    expect(detectAbstention(answer)).toMatchObject({ abstained: true, matchedPhrase: phrase });
  });

  it('reports where the phrase starts', () => {
    expect(detectAbstention('Sorry, I don’t know.').index).toBe(7);
  });
});

describe('detectAbstention: Chinese', () => {
  it.each([
    ['我不知道退款多久到账。', '我不知道'],
    ['抱歉，资料中没有关于运费的信息。', '资料中没有'],
    ['根据提供的内容，无法回答这个问题。', '无法回答'],
    ['文档未提及退款期限。', '未提及'],
    ['没有找到相关规定。', '没有找到'],
  ])('abstains on %j (matches %j)', (answer, phrase) => {
    expect(detectAbstention(answer)).toMatchObject({ abstained: true, matchedPhrase: phrase });
  });
});

describe('detectAbstention: answers that do answer', () => {
  it.each([
    'You can send 100 requests per minute per API key.',
    'Extra requests return status 429 with a Retry-After header.',
    '退款需要在30天内申请。运费不退。',
    'The known limits are listed in the guide.',
  ])('does not abstain on %j', (answer) => {
    expect(detectAbstention(answer)).toEqual({ abstained: false });
  });
});

describe('detectAbstention: options', () => {
  it('replaces the phrases with phrases and adds with extendPhrases', () => {
    expect(detectAbstention("I don't know.", { phrases: ['no idea'] }).abstained).toBe(false);
    expect(detectAbstention('I have no idea.', { phrases: ['no idea'] })).toMatchObject({
      abstained: true,
      matchedPhrase: 'no idea',
    });
    expect(detectAbstention('Beyond my sources.', { extendPhrases: ['beyond my sources'] }).matchedPhrase).toBe(
      'beyond my sources',
    );
    expect(detectAbstention("I don't know.", { extendPhrases: ['beyond my sources'] }).abstained).toBe(true);
  });

  it('counts an answer that declines one point and answers the rest as abstaining (a documented limit)', () => {
    expect(detectAbstention('The docs do not mention refunds, but shipping takes 3 days.').matchedPhrase).toBe(
      'do not mention',
    );
  });

  it('does not match a phrase inside a longer word', () => {
    expect(detectAbstention('There is no ideation step.', { phrases: ['no idea'] }).abstained).toBe(false);
  });

  it('rejects bad input, naming the argument', () => {
    expect(() => detectAbstention(null as unknown as string)).toThrow(TypeError);
    expect(() => detectAbstention(null as unknown as string)).toThrow(/answer must be a string, got null/);
    expect(() => detectAbstention('x', { phrases: [] })).toThrow(RangeError);
    expect(() => detectAbstention('x', { phrases: [] })).toThrow(
      /options\.phrases must hold at least one phrase, got \[\]/,
    );
    expect(() => detectAbstention('x', { extendPhrases: [''] })).toThrow(
      /options\.extendPhrases must hold non-blank strings, got ""/,
    );
    expect(() => detectAbstention('x', { phrases: 'no idea' as never })).toThrow(
      /options\.phrases must be an array of phrases, got "no idea"/,
    );
  });
});
