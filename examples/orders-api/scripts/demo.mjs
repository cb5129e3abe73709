// npm run demo [-- <vitest arguments>]
//
// Runs the Orders API example's tests with the rag-matchers reporter: Vitest's own output, then the
// retrieval summary (each suite × measure against the committed rag-baseline.json), and the JSON,
// Markdown and HTML reports in examples/orders-api/reports/. Builds the package first when dist/ is
// missing or stale. Exits with Vitest's code: 0 on the committed baseline.
//
// The baseline is only compared, never written, unless you ask: `RAG_BASELINE=update npm run demo`
// records a new one (after you changed the retriever on purpose, say).
import { existsSync, rmSync } from 'node:fs';
import { buildIfNeeded, exampleDir, reportPaths, runExampleTests, shown } from './demo-common.mjs';

console.log(
  `rag-matchers demo: the Orders API example (${shown(exampleDir)}): 88 labelled questions against a BM25 retriever.`,
);
if (!buildIfNeeded()) process.exit(1);

const env = { ...process.env };
// The degraded retriever is demo:regression's business.
delete env.ORDERS_RETRIEVER;
const reports = reportPaths('reports');
// Reports of an earlier run must not pass for this run's.
for (const path of reports) rmSync(path, { force: true });
const code = await runExampleTests(process.argv.slice(2), env);

const written = reports.filter((path) => existsSync(path));
if (written.length > 0) {
  console.log('\nReports (open the HTML one in a browser):');
  for (const path of written) console.log(`  ${shown(path)}`);
}
console.log(
  code === 0
    ? '\nThe gate passed: no suite × measure is worse than the committed baseline. `npm run demo:regression` shows it failing.'
    : `\nVitest exited with code ${code}: see the failures or the regressions above.`,
);
process.exit(code);
