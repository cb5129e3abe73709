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
  "metadata.source (LangChain; a split chunk: + '#chunk-' + chunkIndex or a hash of its text)",
  'pageContent (LangChain)',
  "node.sourceNode.nodeId + '#chunk-' + node.id_, else node.id_ / id_ (LlamaIndex)",
] as const;

/** Unicode normalisation forms accepted by the `normalize` option. */
const NORMALIZATION_FORMS = ['NFC', 'NFD', 'NFKC', 'NFKD'] as const;

type Fields = Record<string, unknown>;

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    // A printable ASCII first character is not blank: trim (a copy) only when it might be.
    const first = value.charCodeAt(0);
    return (first > 32 && first < 127) || value.trim() !== '' ? value : undefined;
  }
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
    if (source !== undefined) return langChainSourceKey(source, fields, hit.pageContent);
  }
  const pageContent = textOf(hit.pageContent);
  if (pageContent !== undefined) return pageContent;
  const node = hit.node;
  if (node !== null && typeof node === 'object') {
    const nodeKey = llamaIndexNodeKey(node as Fields);
    if (nodeKey !== undefined) return nodeKey;
  }
  return llamaIndexNodeKey(hit);
}

/**
 * A LangChain `Document` keyed by `metadata.source`: text splitters give every chunk of a file the same
 * source (and a `metadata.loc`), so a split chunk gets its `chunkIndex`, or else a hash of its text —
 * distinct per chunk, stable across runs, and collapsed to the source by `granularity: 'document'`.
 */
function langChainSourceKey(source: string, metadata: Fields, pageContent: unknown): string {
  if (textOf(metadata.chunkIndex) !== undefined) return withChunk(source, metadata.chunkIndex);
  const isSplitChunk = metadata.loc !== null && typeof metadata.loc === 'object';
  const text = textOf(pageContent);
  return isSplitChunk && text !== undefined ? `${source}#chunk-${textHash(text)}` : source;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable fingerprint (not a security hash). */
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A LlamaIndex.TS node: `VectorStoreIndex` gives each chunk a random UUID as `id_` and keeps the
 * document's id at `sourceNode.nodeId` (`relationships.SOURCE.nodeId` once serialised), so a chunk of a
 * document is `<document id>#chunk-<node id>`: its own key at chunk granularity, the document's at
 * `granularity: 'document'`.
 */
function llamaIndexNodeKey(node: Fields): string | undefined {
  const nodeId = textOf(node.id_);
  if (nodeId === undefined) return undefined;
  const documentId =
    textOf(readPath(node, 'sourceNode.nodeId')) ?? textOf(readPath(node, 'relationships.SOURCE.nodeId'));
  return documentId === undefined || documentId === nodeId ? nodeId : `${documentId}#chunk-${nodeId}`;
}

/**
 * LangChain's `similaritySearchWithScore` returns `[Document, score]` pairs: they are hits like any other,
 * keyed (and, with `sortBy: 'score'`, ranked) by their document and score.
 */
export function isDocumentScorePair(hit: unknown): hit is readonly [object, number] {
  return (
    Array.isArray(hit) &&
    hit.length === 2 &&
    hit[0] !== null &&
    typeof hit[0] === 'object' &&
    !Array.isArray(hit[0]) &&
    typeof hit[1] === 'number'
  );
}

/** The hit the key rules read: the document of a `[Document, score]` pair, else the hit itself. */
export function unwrapHit(hit: Hit): Hit {
  return isDocumentScorePair(hit) ? hit[0] : hit;
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
  if (options?.key !== undefined) return keyFromSelector(unwrapHit(hit), index, options.key);
  // The commonest hit first: an object that is not a [Document, score] pair.
  if (hit !== null && typeof hit === 'object' && !Array.isArray(hit)) {
    const key = keyFromFields(hit as Fields);
    if (key !== undefined) return key;
    return noKeyError(hit, index);
  }
  hit = unwrapHit(hit);
  if (typeof hit === 'string') {
    if (hit.trim() !== '') return hit;
  } else if (typeof hit === 'number') {
    if (Number.isFinite(hit)) return String(hit);
  } else if (hit !== null && typeof hit === 'object') {
    const key = keyFromFields(hit as Fields);
    if (key !== undefined) return key;
  }
  return noKeyError(hit, index);
}

function noKeyError(hit: Hit, index: number): never {
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

/** Validates the `normalize` option: undefined (ids compared as written) or a Unicode normalisation form. */
export function readNormalization(normalize: unknown): KeyOptions['normalize'] {
  if (normalize === undefined || (NORMALIZATION_FORMS as readonly unknown[]).includes(normalize))
    return normalize as KeyOptions['normalize'];
  throw new RangeError(
    `normalize must be one of ${NORMALIZATION_FORMS.map((form) => `'${form}'`).join(', ')} (or omitted), received ${describeValue(normalize)}.`,
  );
}

/**
 * Every hit's key in array order. A hole in a sparse array (`[, 'a']`) is no hit: it is refused, by index,
 * rather than skipped (which would shift every rank) or counted. `into`, when given, is filled instead
 * of a new array (a caller's buffer reused from query to query).
 */
export function hitKeys(
  hits: readonly Hit[],
  options: Pick<KeyOptions, 'key' | 'normalize'> = {},
  into?: string[],
): string[] {
  const normalize = readNormalization(options.normalize);
  const keys = into ?? new Array<string>(hits.length);
  keys.length = hits.length;
  const byRules = options.key === undefined && normalize === undefined;
  for (let index = 0; index < hits.length; index++) {
    const hit = hits[index];
    if (byRules && typeof hit === 'object' && hit !== null && !Array.isArray(hit)) {
      // The commonest hit, an object with a string id that starts with a visible ASCII character: the
      // first key rule, read in place (stableKey reads it again for any other hit).
      const id = (hit as Fields).id;
      if (typeof id === 'string') {
        const first = id.charCodeAt(0);
        if (first > 32 && first < 127) {
          keys[index] = id;
          continue;
        }
      }
    }
    if (hit === undefined && !(index in hits)) {
      throw new TypeError(
        `hits[${index}] is a hole in a sparse array (hits has length ${hits.length} but nothing at index ${index}). ` +
          `Pass a dense list of hits in rank order, e.g. hits.filter(() => true) to drop the holes.`,
      );
    }
    const key = stableKey(hit as Hit, index, options);
    keys[index] = normalize === undefined ? key : key.normalize(normalize);
  }
  return keys;
}

/** A value that looks like a Promise: what a retriever returns before it is awaited. */
export function isPromiseLike(value: unknown): boolean {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Fields of framework objects worth naming when the chosen key met no annotation, as `key` paths. */
const ALTERNATIVE_KEY_PATHS = [
  'id',
  'metadata.source',
  'metadata.id',
  'documentId',
  'sourcePath',
  'node.sourceNode.nodeId',
  'sourceNode.nodeId',
  'node.id_',
  'id_',
  'pageContent',
  'node.text',
] as const;

/**
 * The first field of the hits (other than the key they got) whose values meet the annotations: what
 * to pass as `{ key: '<field>' }`. Undefined when no field would have matched either.
 */
export function fieldThatWouldMatch(hits: readonly Hit[], judgedIds: ReadonlySet<string>): string | undefined {
  for (const path of ALTERNATIVE_KEY_PATHS) {
    for (let index = 0; index < hits.length; index++) {
      const hit = unwrapHit(hits[index] as Hit);
      if (hit === null || typeof hit !== 'object') continue;
      const value = textOf(readPath(hit, path));
      if (value !== undefined && judgedIds.has(value)) return path;
    }
  }
  return undefined;
}
