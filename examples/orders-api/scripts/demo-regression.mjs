// npm run demo:regression
//
// Shows the gate catching a regression. Runs the same suite as `npm run demo` with the degraded
// retriever (ORDERS_RETRIEVER=degraded: "tolerate more typos" by allowing two edits for every query
// term, which sounds like a recall improvement and is not) and CI=true, so the baseline is compared
// and never written. The reporter must fail the run and list the questions that got worse; the
// reports go to examples/orders-api/reports/degraded/.
//
// Exits 0 when the gate failed as expected, and non-zero when it did NOT catch the regression.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfNeeded, exampleDir, reportPaths, runExampleTests, shown } from './demo-common.mjs';

console.log(
  'rag-matchers regression demo: the Orders API suite with a worse retriever setting (ORDERS_RETRIEVER=degraded, ' +
    'fuzzy matching with 2 edits for every term), compared with the committed baseline under CI=true (compare only).',
);
if (!buildIfNeeded()) process.exit(1);

const env = { ...process.env, ORDERS_RETRIEVER: 'degraded', CI: 'true' };
// A demonstration does not belong in a CI job's summary, and must not try to update the baseline.
delete env.GITHUB_STEP_SUMMARY;
delete env.RAG_BASELINE;

const reports = reportPaths(join('reports', 'degraded'));
const [jsonReport] = reports;
for (const path of reports) rmSync(path, { force: true });
const code = await runExampleTests(process.argv.slice(2), env);

let report;
if (existsSync(jsonReport)) {
  try {
    report = JSON.parse(readFileSync(jsonReport, 'utf8'));
  } catch (error) {
    console.error(`\nCannot read ${shown(jsonReport)}: ${error.message}`);
  }
}
const regressedRows = report?.counts?.regressed ?? 0;
const worseQuestions = new Set(
  (report?.rows ?? []).flatMap((row) => (row.status === 'regressed' ? row.worse.map((change) => change.sampleId) : [])),
);

if (code !== 0 && report?.passed === false && regressedRows > 0) {
  console.log(
    `\nVitest exited with code ${code}, and that is the expected outcome: the gate caught the degraded retriever ` +
      `(${regressedRows} suite × measure rows regressed, ${worseQuestions.size} questions got worse; reports in ` +
      `${shown(join(exampleDir, 'reports', 'degraded'))}), so demo:regression exits 0.`,
  );
  process.exit(0);
}
console.error(
  code === 0
    ? '\nThe gate did NOT catch the degraded retriever: the run passed. Something is wrong with the example or the reporter.'
    : `\nThe run failed (exit ${code}), but not because the gate caught a regression ` +
        `(${report === undefined ? `no report at ${shown(jsonReport)}` : `the report counts ${regressedRows} regressed rows`}). Something is wrong.`,
);
process.exit(1);
