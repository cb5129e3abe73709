// The declaration bundler drops triple-slash references; rag-matchers/jest augments the 'expect'
// module (behind @jest/globals), which must be part of the user's program for the augmentation to apply.
import { readFileSync, writeFileSync } from 'node:fs';

const reference = '/// <reference types="expect" />\n';
for (const file of ['dist/jest.d.ts', 'dist/jest.d.cts']) {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith(reference)) writeFileSync(file, reference + text);
}
