import { describe, expect, it } from 'vitest';
import { toCiteOnlyRetrieved } from '../../../matchers/toCiteOnlyRetrieved.js';
import { failureOf, recordingContext } from './helpers.js';

// Keys as the retrieval matchers compute them: a string is its own key, documentId + chunkIndex → doc#chunk-n.
const hits = ['rate-limits#chunk-0', { documentId: 'errors', chunkIndex: 2 }, { id: 'webhooks' }];

describe('toCiteOnlyRetrieved: every citation must refer to a retrieved hit', () => {
  it('passes for positions 1..3 and for the retrieved keys, whatever the hit shape', () => {
    expect('Each key may send 100 requests per minute [1]. Extra ones get 429 [2, 3].').toCiteOnlyRetrieved(hits);
    expect('See [errors#chunk-2] and [^webhooks].').toCiteOnlyRetrieved(hits);
    expect('Retry after the delay [1-3].').toCiteOnlyRetrieved(hits);
  });

  it('fails for a position past the last hit, position 0 and a key never retrieved', () => {
    expect('Limits are per key [4].').not.toCiteOnlyRetrieved(hits);
    expect('Limits are per key [0].').not.toCiteOnlyRetrieved(hits);
    expect('Limits are per key [pagination].').not.toCiteOnlyRetrieved(hits);
    expect('Any citation is bad when nothing was retrieved [1].').not.toCiteOnlyRetrieved([]);
  });

  it('names each bad citation with its reason and lists the retrieved keys by position', () => {
    const answer =
      'Limits are per key [1]. Extra requests get 429 [4]. Retries wait [2-4]. See [rate-limits] and [Webhooks].';
    expect(failureOf(() => expect(answer).toCiteOnlyRetrieved(hits, { queryId: 'q-429' }))).toMatchInlineSnapshot(`
      "expect(answer).toCiteOnlyRetrieved(hits, options)

      4 of 7 citations refer to no retrieved hit  (query q-429):
        ✗ [4]: position 4 is out of range: only 3 hits were retrieved
        ✗ 4 in [2-4]: position 4 is out of range: only 3 hits were retrieved
        ✗ [rate-limits]: "rate-limits" was never retrieved: it is not one of the 3 retrieved keys; a chunk of that document was retrieved as "rate-limits#chunk-0": cite the chunk key, or compare at document level
        ✗ [Webhooks]: "Webhooks" was never retrieved: it is not one of the 3 retrieved keys; keys are case-sensitive and "webhooks" was retrieved

      To accept a document id for any retrieved chunk of that document, pass { granularity: 'document' }.

      Retrieved hits (3), ✓ = cited:
        1  ✓ rate-limits#chunk-0
        2  ✓ errors#chunk-2
        3  ✓ webhooks"
    `);
  });

  it('with .not, lists the citations that were all valid', () => {
    expect(failureOf(() => expect('Per key [1]; see [errors#chunk-2] and [1].').not.toCiteOnlyRetrieved(hits)))
      .toMatchInlineSnapshot(`
      "expect(answer).not.toCiteOnlyRetrieved(hits, options)

      Expected some citation to refer to no retrieved hit, but all 3 citations do:
        [1] → rate-limits#chunk-0 (cited 2×)
        [errors#chunk-2]

      Retrieved hits (3), ✓ = cited:
        1  ✓ rate-limits#chunk-0
        2  ✓ errors#chunk-2
        3    webhooks"
    `);
  });
});

describe('toCiteOnlyRetrieved: answers without citations', () => {
  it('pass unless requireCitation is on', () => {
    expect('Each key may send 100 requests per minute.').toCiteOnlyRetrieved(hits);
    expect('Each key may send 100 requests per minute.').not.toCiteOnlyRetrieved(hits, { requireCitation: true });
    expect('Each key may send 100 requests per minute [1].').toCiteOnlyRetrieved(hits, { requireCitation: true });
  });

  it('say that nothing was cited and which styles are read', () => {
    expect(
      failureOf(() =>
        expect('Each key may send 100 requests per minute.').toCiteOnlyRetrieved(hits, { requireCitation: true }),
      ),
    ).toMatchInlineSnapshot(`
      "expect(answer).toCiteOnlyRetrieved(hits, options)

      The answer cites nothing, and requireCitation is on.

      Answer: "Each key may send 100 requests per minute."

      Citations are read as [1], [1, 2], [1-3], [key], [^id] and 【1】; pass { citations: /…(ref)…/g } for another style.

      Retrieved hits (3), ✓ = cited:
        1    rate-limits#chunk-0
        2    errors#chunk-2
        3    webhooks"
    `);
  });
});

describe('toCiteOnlyRetrieved options', () => {
  it('key: the same key selector as the retrieval matchers', () => {
    const custom = [{ uid: 'faq-1' }, { uid: 'faq-2' }];
    expect('See [faq-2].').toCiteOnlyRetrieved(custom, { key: 'uid' });
    expect('See [faq-3].').not.toCiteOnlyRetrieved(custom, { key: (hit) => (hit as { uid: string }).uid });
  });

  it("granularity 'document': a document id is valid when a chunk of it was retrieved", () => {
    const message = failureOf(() => expect('Limits are per key [rate-limits].').toCiteOnlyRetrieved(hits));
    expect(message).toContain('a chunk of that document was retrieved as "rate-limits#chunk-0"');
    expect(message).toContain("pass { granularity: 'document' }");
    expect('Limits are per key [rate-limits].').toCiteOnlyRetrieved(hits, { granularity: 'document' });
    expect('Limits are per key [rate-limits#chunk-7].').toCiteOnlyRetrieved(hits, { granularity: 'document' });
    expect('Limits are per key [pagination].').not.toCiteOnlyRetrieved(hits, { granularity: 'document' });
    // Positions are unaffected by granularity.
    expect('Limits are per key [4].').not.toCiteOnlyRetrieved(hits, { granularity: 'document' });
  });

  it('citations: a custom extractor', () => {
    expect('Limits are per key (source: webhooks).').toCiteOnlyRetrieved(hits, { citations: /\(source: ([^)]+)\)/g });
    const message = failureOf(() =>
      expect('Limits are per key (source: billing).').toCiteOnlyRetrieved(hits, { citations: /\(source: ([^)]+)\)/g }),
    );
    expect(message).toContain(
      '✗ billing in (source: billing): "billing" was never retrieved: it is not one of the 3 retrieved keys',
    );
  });

  it('records no sample: it is a yes/no check, not a measure', () => {
    const { context, samples } = recordingContext();
    expect(toCiteOnlyRetrieved.call(context, 'Per key [4].', hits).pass).toBe(false);
    expect(samples()).toBeUndefined();
  });
});

describe('toCiteOnlyRetrieved usage errors fail with and without .not, naming the argument', () => {
  it.each([
    ['answer not a string', () => expect(['[1]']).toCiteOnlyRetrieved(hits), /received value must be the answer text/],
    [
      'hits not an array',
      () => expect('See [1].').toCiteOnlyRetrieved('rate-limits' as never),
      /hits.*must be the retrieved hits in rank order/,
    ],
    [
      'hits not an array under .not',
      () => expect('See [1].').not.toCiteOnlyRetrieved({ id: 'a' } as never),
      /hits.*must be the retrieved hits in rank order/,
    ],
    [
      'a hit without a key',
      () => expect('See [1].').toCiteOnlyRetrieved([{ score: 0.9 }]),
      /hits\[0\] has no usable key/,
    ],
    [
      'bad extractor',
      () => expect('See [1].').not.toCiteOnlyRetrieved(hits, { citations: /source: \w+/g }),
      /exactly one capture group/,
    ],
    [
      'requireCitation not boolean',
      () => expect('See [1].').toCiteOnlyRetrieved(hits, { requireCitation: 'yes' as never }),
      /options\.requireCitation must be true or false/,
    ],
    [
      'bad granularity',
      () => expect('See [1].').toCiteOnlyRetrieved(hits, { granularity: 'page' as never }),
      /options\.granularity.*must be 'chunk' or 'document'/,
    ],
  ])('%s', (_name, assertion, pattern) => {
    const message = failureOf(assertion);
    expect(message).toMatch(/Matcher error/);
    expect(message).toMatch(pattern);
  });
});
