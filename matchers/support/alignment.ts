// Whether a ranking that met no annotation is an id mismatch or a genuine miss, told from the shapes
// of the ids alone, and what the hits carry that a key function could use.
import { documentKeyOf, unwrapHit } from '../../src/core/keys.js';
import type { Hit } from '../../src/core/types.js';

/** Ids compared per side (the first ones: a ranking's top and the first annotations). */
const SAMPLED_IDS = 20;
/** Fields of a hit listed at most in a hint. */
const MAX_FIELDS = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,4}$/;
const PREFIXED_NUMBER = /^([A-Za-z]+)[-_]?\d+$/;

/**
 * What kind of id this is, from its shape: a chunk (`#chunk-<n>`), a UUID, a number, a file name, a
 * path, the separators it uses (`:`, `#`, `|`, `@`), a `<prefix>-<n>` id's prefix. Two ids of one
 * corpus (`refund-policy`, `invoices`; `doc-1`, `doc-7`) have one shape.
 */
function idShape(id: string): string {
  const features: string[] = [];
  const base = documentKeyOf(id);
  if (base !== id) features.push(chunkShape(id.slice(base.length + '#chunk-'.length)));
  if (UUID.test(base)) features.push('uuid');
  else if (/^\d+$/.test(base)) features.push('number');
  else {
    if (FILE_EXTENSION.test(base)) features.push('file');
    if (/[\\/]/.test(base)) features.push('path');
    const separators = [...new Set(base.replace(/[^:#|@]/g, ''))].sort().join('');
    if (separators !== '') features.push(`separators ${separators}`);
    const prefix = PREFIXED_NUMBER.exec(base)?.[1];
    if (prefix !== undefined) features.push(`prefix ${prefix.toLowerCase()}`);
  }
  return features.join(', ');
}

/** A chunk by its number, a node's UUID, or a hash of its text (LangChain splits): three ways of naming chunks. */
function chunkShape(chunk: string): string {
  if (/^\d+$/.test(chunk)) return 'chunk number';
  if (UUID.test(chunk)) return 'chunk uuid';
  if (/^[0-9a-f]{8}$/.test(chunk)) return 'chunk hash';
  return 'chunk';
}

/** Whether the shapes say the two sides name different kinds of things (no shape in common). */
export function shapesDiffer(annotationIds: readonly string[], hitKeys: readonly string[]): boolean {
  const annotationShapes = new Set(annotationIds.slice(0, SAMPLED_IDS).map(idShape));
  return !hitKeys.slice(0, SAMPLED_IDS).some((key) => annotationShapes.has(idShape(key)));
}

type Fields = Record<string, unknown>;

function isScalar(value: unknown): value is string | number {
  return (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value));
}

/** The scalar fields of an object hit as `key` paths, one level of nesting deep (`metadata.source`). */
function scalarFields(hit: Fields): Map<string, string | number> {
  const fields = new Map<string, string | number>();
  for (const [name, value] of Object.entries(hit)) {
    if (isScalar(value)) fields.set(name, value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value))
      for (const [inner, innerValue] of Object.entries(value as Fields))
        if (isScalar(innerValue)) fields.set(`${name}.${inner}`, innerValue);
  }
  return fields;
}

/** The object hits' fields, as paths, in the order the first hits show them; [] for hits that are ids. */
function hitFieldPaths(hits: readonly Hit[]): string[] {
  const paths = new Set<string>();
  for (const hit of hits.slice(0, SAMPLED_IDS)) {
    const object = unwrapHit(hit);
    if (object === null || typeof object !== 'object') continue;
    for (const path of scalarFields(object as Fields).keys()) paths.add(path);
  }
  return [...paths];
}

/** Whether a field's name says it numbers the chunks of a document. */
const CHUNK_FIELD = /chunk|index|part|seq|position/i;

/**
 * A key function over two fields of the hits — a document field and a chunk field, as
 * `${document}#chunk-${chunk}` — whose keys meet the annotations, as the hint writes it; undefined when
 * no such pair does.
 */
export function keyFunctionThatWouldMatch(hits: readonly Hit[], judged: ReadonlySet<string>): string | undefined {
  const sampled = hits.slice(0, SAMPLED_IDS).map((hit) => {
    const object = unwrapHit(hit);
    return object !== null && typeof object === 'object' ? scalarFields(object as Fields) : new Map();
  });
  const paths = hitFieldPaths(hits);
  for (const chunkPath of paths.filter((path) => CHUNK_FIELD.test(path.split('.').pop()!))) {
    for (const documentPath of paths) {
      if (documentPath === chunkPath) continue;
      const meets = sampled.some((fields) => {
        const document = fields.get(documentPath);
        const chunk = fields.get(chunkPath);
        return document !== undefined && chunk !== undefined && judged.has(`${document}#chunk-${chunk}`);
      });
      if (meets) return `{ key: (hit) => \`\${hit.${documentPath}}#chunk-\${hit.${chunkPath}}\` }`;
    }
  }
  return undefined;
}

/** The hint's line naming what the hits carry, `''` for hits that are plain ids. */
export function fieldsLine(hits: readonly Hit[]): string {
  const paths = hitFieldPaths(hits);
  if (paths.length === 0) return '';
  const shown = paths.slice(0, MAX_FIELDS).join(', ');
  return `The hits carry ${shown}${paths.length > MAX_FIELDS ? `, … (${paths.length - MAX_FIELDS} more)` : ''}.`;
}
