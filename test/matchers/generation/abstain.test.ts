import { describe, expect, it } from 'vitest';
import { toAbstain } from '../../../matchers/toAbstain.js';
import { failureOf, recordingContext, SEED_ANSWER } from './helpers.js';

describe('toAbstain / .not.toAbstain', () => {
  it('English: declining phrases, whatever the case, apostrophe or line breaks', () => {
    expect('Sorry, that is not in the provided context.').toAbstain();
    expect('I DON’T\nKNOW.').toAbstain();
    expect('The documents do not mention refunds.').toAbstain();
    expect(SEED_ANSWER).not.toAbstain();
  });

  it('Chinese: 资料中没有, 无法回答, 我不知道', () => {
    expect('抱歉，资料中没有关于运费的信息。').toAbstain();
    expect('根据提供的内容，无法回答这个问题。').toAbstain();
    expect('我不知道退款多久到账。').toAbstain({ locale: 'zh-CN' });
    expect('退款需要在30天内申请。').not.toAbstain();
  });

  it('phrases replaces the sets, extendPhrases adds to them', () => {
    expect('NO_ANSWER').toAbstain({ phrases: ['NO_ANSWER'] });
    expect("I don't know.").not.toAbstain({ phrases: ['NO_ANSWER'] });
    expect('The guide is silent on this.').not.toAbstain();
    expect('The guide is silent on this.').toAbstain({ extendPhrases: ['is silent on'] });
  });

  it('a missed abstention quotes the answer and names the phrase sets tried', () => {
    expect(failureOf(() => expect(SEED_ANSWER).toAbstain())).toMatchInlineSnapshot(`
      "expect(answer).toAbstain()

      Expected the answer to say it has no answer, but no abstention phrase was found.

      Answer: "You can send 100 requests per minute per API key. Extra requests return status 429. Limits reset every hour."

      Phrases tried: the default English (43) and Chinese (17) phrases, e.g. "I don't know", "not in the provided context", "无法回答"
      If your model declines in other words, add them with { extendPhrases: ['…'] }, or have it reply with a fixed marker and pass { phrases: ['NO_ANSWER'] }."
    `);
  });

  it('names the phrases of the test when it gave its own', () => {
    const message = failureOf(() =>
      expect('The guide is silent on this.').toAbstain({
        phrases: ['NO_ANSWER'],
        extendPhrases: ['outside my sources'],
      }),
    );
    expect(message).toContain('Phrases tried: 1 phrase of yours: "NO_ANSWER", plus "outside my sources"');
  });

  it('.not quotes the answer and the phrase that matched', () => {
    expect(failureOf(() => expect('抱歉，资料中没有关于运费的信息。').not.toAbstain())).toMatchInlineSnapshot(`
      "expect(answer).not.toAbstain()

      Expected an answer, but it abstains: it says "资料中没有"

      Answer: "抱歉，资料中没有关于运费的信息。"

      A phrase anywhere counts, even in an answer that declines one point and answers the rest."
    `);
  });

  it('a long answer is quoted around the matched phrase', () => {
    const answer = `${'Orders ship from our warehouse in two to three days. '.repeat(4)}Refunds are not covered in the provided documents, so I cannot say.`;
    const message = failureOf(() => expect(answer).not.toAbstain());
    expect(message).toContain('it says "not covered in the"');
    // 4 × 53 characters, then "Refunds are " (12): the phrase starts at 224 of 279; 60 characters before it, cut at a space.
    expect(message).toContain(
      'Answer: "…ship from our warehouse in two to three days. Refunds are not covered in the provided documents, so I cannot say." (279 characters; the phrase is at character 224)',
    );
  });

  it('records no sample', () => {
    const { context, samples } = recordingContext();
    expect(toAbstain.call(context, "I don't know.").pass).toBe(true);
    expect(samples()).toBeUndefined();
  });
});

describe('toAbstain usage errors fail with and without .not, naming the argument', () => {
  it.each([
    ['answer not a string', () => expect(undefined).toAbstain(), /received value must be the answer text/],
    ['answer not a string under .not', () => expect(null).not.toAbstain(), /received value must be the answer text/],
    ['blank answer under .not', () => expect('').not.toAbstain(), /received answer is empty/],
    [
      'empty phrase list',
      () => expect('x').toAbstain({ phrases: [] }),
      /options\.phrases must hold at least one phrase/,
    ],
    [
      'phrases not an array',
      () => expect('x').not.toAbstain({ phrases: 'NO_ANSWER' as never }),
      /options\.phrases must be an array of phrases/,
    ],
    ['options not an object', () => expect('x').toAbstain('NO_ANSWER' as never), /options.*must be an object/],
  ])('%s', (_name, assertion, pattern) => {
    const message = failureOf(assertion);
    expect(message).toMatch(/Matcher error/);
    expect(message).toMatch(pattern);
  });
});
