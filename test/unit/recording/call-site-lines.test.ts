// Whether the matchers look up the asserting line: a reporter that shows no annotation says so to its
// own workers only, not to a test run that one of its tests starts.
import { describe, expect, it } from 'vitest';

import { callSiteLinesWanted, publishCallSiteLines } from '../../../src/recording/call-site.js';

describe('publishCallSiteLines', () => {
  it('tells this process and its children that no line is wanted, and takes it back', () => {
    const env: Record<string, string | undefined> = {};
    expect(callSiteLinesWanted(env)).toBe(true);
    publishCallSiteLines(false, env);
    expect(env).toEqual({ RAG_MATCHERS_NO_CALL_SITES: String(process.pid) });
    expect(callSiteLinesWanted(env)).toBe(false);
    // A worker forked by the reporter's process reads it as its parent's word.
    expect(callSiteLinesWanted({ RAG_MATCHERS_NO_CALL_SITES: String(process.ppid) })).toBe(false);
    publishCallSiteLines(true, env);
    expect(env).toEqual({});
    expect(callSiteLinesWanted(env)).toBe(true);
  });

  it('ignores the word of an outer run, inherited by a run a test starts', () => {
    const outerRun = String(process.pid + 1_000_000);
    expect(callSiteLinesWanted({ RAG_MATCHERS_NO_CALL_SITES: outerRun })).toBe(true);
  });

  it("reads this process's environment once, and again after the reporter's next word", () => {
    try {
      publishCallSiteLines(false);
      expect(callSiteLinesWanted()).toBe(false);
      process.env.RAG_MATCHERS_NO_CALL_SITES = 'changed behind its back';
      expect(callSiteLinesWanted()).toBe(false);
      publishCallSiteLines(true);
      expect(callSiteLinesWanted()).toBe(true);
    } finally {
      publishCallSiteLines(true);
    }
  });
});
