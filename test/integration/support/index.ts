// Helpers for integration tests that run the built package under real runners on fixture projects.
export * from './build.js';
export * from './project.js';
export * from './reports.js';
export * from './run.js';
export * from './runners.js';
