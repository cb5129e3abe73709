import { describeValue } from './describe.js';
import type { Hit, KeyOptions, KeySelector } from './types.js';

/** The rules `stableKey` tries, in order; named in the error when none applies. */
export const KEY_RULES = [
  'id',
  "documentId + '#chunk-' + chunkIndex",
  "sourcePath + '#chunk-' + chunkIndex",
  "sourceUri + '#chunk-' + chunkIndex",
  "sourceName + '/' + sectionTitle + '#chunk-' + chunkIndex",
  'content',
  'metadata.id (LangChain)',
  'metadata.source (LangChain)',
  'pageContent (LangChain)',
  'node.id_ / id_ (LlamaIndex)',
] as const;

type Fields = Record<string, unknown>;

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function withChunk(base: string, chunkIndex: unknown): string {
  const chunk = textOf(chunkIndex);
  return chunk === undefined ? base : `${base}#chunk-${chunk}`;
}

function readPath(hit: Hit, path: string): unknown {
  let value: unknown = hit;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Fields)[part];
  }
  return value;
}

function keyFromFields(hit: Fields): string | undefined {
  const id = textOf(hit.id);
  if (id !== undefined) return id;
  for (const field of ['documentId', 'sourcePath', 'sourceUri'] as const) {
    const base = textOf(hit[field]);
    if (base !== undefined) return withChunk(base, hit.chunkIndex);
  }
  const sourceName = textOf(hit.sourceName);
  if (sourceName !== undefined) {
    const section = textOf(hit.sectionTitle);
    return withChunk(section === undefined ? sourceName : `${sourceName}/${section}`, hit.chunkIndex);
  }
  const content = textOf(hit.content);
  if (content !== undefined) return content;
  return keyFromAdapters(hit);
}

/** LangChain.js `Document` and LlamaIndex.TS `NodeWithScore` / `TextNode`, without mapping by hand. */
function keyFromAdapters(hit: Fields): string | undefined {
  const metadata = hit.metadata;
  if (metadata !== null && typeof metadata === 'object') {
    const fields = metadata as Fields;
    const metadataId = textOf(fields.id);
    if (metadataId !== undefined) return metadataId;
    const source = textOf(fields.source);
    if (source !== undefined) return withChunk(source, fields.chunkIndex);
  }
  const pageContent = textOf(hit.pageContent);
  if (pageContent !== undefined) return pageContent;
  const node = hit.node;
  if (node !== null && typeof node === 'object') {
    const nodeId = textOf((node as Fields).id_);
    if (nodeId !== undefined) return nodeId;
  }
  return textOf(hit.id_);
}

function keyFromSelector(hit: Hit, index: number, selector: KeySelector): string {
  const raw = typeof selector === 'function' ? selector(hit, index) : readPath(hit, selector);
  const key = textOf(raw);
  if (key === undefined) {
    const how = typeof selector === 'function' ? 'the key function' : `the key property '${selector}'`;
    throw new TypeError(
      `hits[${index}]: ${how} returned ${describeValue(raw)}, not a non-empty string or number. ` +
        `Make the key option return the id your annotations use for this hit (${describeValue(hit)}).`,
    );
  }
  return key;
}

/** A string that is its own key: not empty, not blank (a leading space is part of the key). */
export function isPlainKey(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && (value.charCodeAt(0) > 32 || value.trim() !== '');
}

/**
 * The key that aligns a hit with the annotations (docs/metrics.md, Inputs): the `key` option if given, else the
 * first of KEY_RULES that the hit has. A hit with no key at all is an error that names its index.
 */
export function stableKey(hit: Hit, index: number, options?: Pick<KeyOptions, 'key'>): string {
  if (options?.key !== undefined) return keyFromSelector(hit, index, options.key);
  if (typeof hit === 'string') {
    if (hit.trim() !== '') return hit;
  } else if (typeof hit === 'number') {
    if (Number.isFinite(hit)) return String(hit);
  } else if (hit !== null && typeof hit === 'object') {
    const key = keyFromFields(hit as Fields);
    if (key !== undefined) return key;
  }
  throw new TypeError(
    `hits[${index}] has no usable key: ${describeValue(hit)}. Tried ${KEY_RULES.join(', ')}. ` +
      `Give each hit an id, or pass { key: 'fieldName' } or { key: (hit) => hit.myId }.`,
  );
}

const CHUNK_SUFFIX = /#chunk-[^#]*$/;

/** The document a chunk key belongs to: the key without its trailing `#chunk-<n>`. */
export function documentKeyOf(key: string): string {
  return key.replace(CHUNK_SUFFIX, '');
}
