// scripts/compact-glue.mjs: Rollup's glue between the built chunks, written without layout. Only the
// glue changes: a line of code that looks like an import (in a template literal, say) is left alone.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without declarations
import { compactGlue } from '../../../scripts/compact-glue.mjs';

const compact = compactGlue as (file: string, text: string) => string;

describe('compactGlue', () => {
  it('writes the leading import and export statements and the last export list of an ESM chunk without spaces', () => {
    const text = [
      "import { a, b as c } from './chunk-AAAAAAAA.js';",
      "import fs from 'node:fs';",
      "import * as path from 'node:path';",
      "import './chunk-BBBBBBBB.js';",
      "export { d } from './chunk-CCCCCCCC.js';",
      "export * from './chunk-DDDDDDDD.js';",
      '',
      'var s=`',
      "import { x } from 'y';",
      '`;function d(){return s}',
      '',
      'export { d, s as default };',
      '',
    ].join('\n');
    expect(compact('chunk-EEEEEEEE.js', text)).toBe(
      [
        'import{a,b as c}from"./chunk-AAAAAAAA.js";',
        'import fs from"node:fs";',
        'import * as path from"node:path";',
        'import"./chunk-BBBBBBBB.js";',
        'export{d}from"./chunk-CCCCCCCC.js";',
        'export*from"./chunk-DDDDDDDD.js";',
        '',
        'var s=`',
        "import { x } from 'y';",
        '`;function d(){return s}',
        '',
        'export{d,s as default};',
        '',
      ].join('\n'),
    );
  });

  it('keeps the #! line of the command', () => {
    const text = "#!/usr/bin/env node\nimport { a } from './chunk-AAAAAAAA.js';\na();\n";
    expect(compact('cli.js', text)).toBe('#!/usr/bin/env node\nimport{a}from"./chunk-AAAAAAAA.js";\na();\n');
  });

  it('writes a CommonJS re-export getter on one line and names chunk objects without _cjs', () => {
    const text = [
      "var chunkAB12CD34_cjs = require('./chunk-AB12CD34.cjs');",
      'Object.defineProperty(exports, "f", {',
      '\tenumerable: true,',
      '\tget: function () { return chunkAB12CD34_cjs.f; }',
      '});',
      'exports.g = chunkAB12CD34_cjs.h;',
      'var chunky_cjs = 1;',
      '',
    ].join('\n');
    expect(compact('index.cjs', text)).toBe(
      [
        "var chunkAB12CD34 = require('./chunk-AB12CD34.cjs');",
        'Object.defineProperty(exports,"f",{enumerable:!0,get:()=>chunkAB12CD34.f});',
        'exports.g = chunkAB12CD34.h;',
        'var chunky_cjs = 1;',
        '',
      ].join('\n'),
    );
  });

  it("sets a CommonJS chunk's closing exports in one Object.assign, broken after 160 characters; an entry's stay", () => {
    const names = Array.from({ length: 8 }, (_, index) => `exportedNameNumber${index}`);
    const text = [
      "'use strict';",
      '',
      "var chunkAB12CD34_cjs = require('./chunk-AB12CD34.cjs');",
      'var s=1;',
      ...names.map((name) => `exports.${name} = ${name};`),
      'exports.g = chunkAB12CD34_cjs.h;',
      '',
    ].join('\n');
    expect(compact('chunk-EEEEEEEE.cjs', text)).toBe(
      [
        "'use strict';",
        '',
        "var chunkAB12CD34 = require('./chunk-AB12CD34.cjs');",
        'var s=1;',
        // 23 + 19 + 6 × 20 = 162 characters after the 7th name: the line breaks there.
        `Object.assign(exports,{${names.slice(0, 7).join(',')},`,
        'exportedNameNumber7,g:chunkAB12CD34.h});',
        '',
      ].join('\n'),
    );
    expect(compact('trec.cjs', text)).toBe(text.replace(/_cjs\b/g, ''));
  });

  it('changes nothing the second time', () => {
    const text = "import { a } from './x.js';\nexport { a };\n";
    const once = compact('x.js', text);
    expect(compact('x.js', once)).toBe(once);
    const chunk = 'var a=1;\nexports.a = a;\nexports.b = a;\n';
    const compacted = compact('chunk-AAAAAAAA.cjs', chunk);
    expect(compacted).toBe('var a=1;\nObject.assign(exports,{a,b:a});\n');
    expect(compact('chunk-AAAAAAAA.cjs', compacted)).toBe(compacted);
  });
});
