// The one stylesheet of the HTML reports (run report and baseline history), inlined in each file.

export const STYLE = `
:root{--regressed:#c62828;--improved:#2e7d32;--unchanged:#607d8b;--new:#1565c0;--ink:#1f2328;--muted:#59636e;--line:#d0d7de;--soft:#f6f8fa;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#fff;max-width:1180px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;padding-top:8px;border-top:1px solid var(--line)}h3{font-size:15px;margin:20px 0 6px}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;color:#fff}.verdict.passed{background:var(--improved)}.verdict.failed{background:var(--regressed)}
.meta,.note{color:var(--muted)}.meta{margin:6px 0 16px}.warning{margin:4px 0;padding:4px 10px;border-left:3px solid #b26a00;background:#fff8e1}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}th,td{border-bottom:1px solid var(--line);padding:4px 10px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.suite{max-width:380px;overflow-wrap:anywhere}
.status{display:inline-block;white-space:nowrap;min-width:86px;padding:0 6px;border-radius:10px;font-size:12px;text-align:center;color:#fff}
.status.regressed{background:var(--regressed)}.status.improved{background:var(--improved)}.status.unchanged{background:var(--unchanged)}.status.new{background:var(--new)}
.up{color:var(--improved)}.down{color:var(--regressed)}
nav ul{margin:4px 0;padding-left:20px}nav a{overflow-wrap:anywhere}
.charts{display:flex;flex-wrap:wrap;gap:8px 16px}
figure{margin:8px 0 16px}figcaption{font-size:13px;color:var(--muted);margin-bottom:4px;overflow-wrap:anywhere}
svg.chart{display:block;max-width:100%;height:auto;font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:var(--ink)}
svg .axis text{fill:var(--muted);font-size:11px}svg .grid{stroke:#eaeef2;stroke-width:1}svg .zero{stroke:var(--muted);stroke-width:1}
svg .chart-title{font-weight:600}svg .legend text{fill:var(--muted);font-size:11px}
svg .ci{stroke:var(--ink);stroke-width:2}svg .mean{stroke:#fff;stroke-width:1.5}svg .baseline{fill:#fff;stroke:var(--ink);stroke-width:1.5}
svg .status-regressed .mean,svg .status-regressed .delta{fill:var(--regressed)}svg .status-regressed .ci{stroke:var(--regressed)}
svg .status-improved .mean,svg .status-improved .delta{fill:var(--improved)}svg .status-improved .ci{stroke:var(--improved)}
svg .status-unchanged .mean{fill:var(--unchanged)}svg .status-unchanged .ci{stroke:var(--unchanged)}
svg .status-new .mean,svg .status-new .delta{fill:var(--new)}svg .status-new .ci{stroke:var(--new)}
svg .legend .mean{fill:var(--unchanged)}svg .delta{fill:var(--muted)}
svg .bar.worse{fill:var(--regressed)}svg .bar.better{fill:var(--improved)}svg .value{fill:var(--muted);font-size:11px}
svg .hist-now{fill:#90a4ae}svg .hist-before{fill:none;stroke:var(--ink);stroke-width:1.2;stroke-dasharray:3 2}svg .hit{fill:transparent}
svg .mean-line{stroke:var(--new);stroke-width:1.5}
svg .series{fill:none;stroke-width:2}svg .point{stroke:#fff;stroke-width:1}
svg .question:hover .label,svg .row:hover .label{font-weight:600}
@media print{body{padding:0}h2{break-before:auto}figure{break-inside:avoid}}
`
  .trim()
  .replace(/\n/g, '');

/**
 * No script, no remote content: the policy makes that a property of the file (a browser refuses to fetch
 * or run anything even if a bug ever let markup through), not only of how it was written.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** Categorical colours for the history chart's lines (Okabe–Ito, readable with colour-vision deficiency). */
export const SERIES_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];
