// The runner-agnostic half of the reporters: summary model, baseline store and comparison, renderers.
// The Vitest and Jest reporters (src/vitest, src/jest) collect a CollectedRun and call into this.
export * from '../recording/collected.js';
export * from './summary.js';
export * from './options.js';
export * from './console.js';
export * from './markdown.js';
export * from './json.js';
export {
  acceptCommandFor,
  describeChange,
  describeCounts,
  describeTest,
  formatDelta,
  formatP,
  formatValue,
} from './format.js';
export * from '../baseline/index.js';
