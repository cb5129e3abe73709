// Placeholder until the Vitest reporter lands (reporters and baselines issue).
export default class RagMatchersVitestReporter {}
