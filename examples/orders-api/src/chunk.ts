import type { Section } from './corpus.js';

export interface Chunk {
  /** `${documentId}#chunk-${chunkIndex}` */
  id: string;
  /** The section id: relevance judgments are made at this level. */
  documentId: string;
  chunkIndex: number;
  sectionTitle: string;
  sourcePath: string;
  content: string;
}

export interface ChunkOptions {
  /** Upper bound on the words of a chunk, not counting the overlap. */
  maxWords?: number;
  /** Words repeated from the end of the previous chunk of the same section. */
  overlapWords?: number;
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/**
 * Splits each section on paragraph boundaries (blank lines) and packs whole paragraphs into chunks of
 * at most `maxWords` words; a paragraph longer than that is cut into runs of `maxWords` words.
 */
export function chunkSections(sections: Section[], { maxWords = 120, overlapWords = 0 }: ChunkOptions = {}): Chunk[] {
  if (!(maxWords > 0)) throw new Error('maxWords must be positive');
  if (overlapWords < 0 || overlapWords >= maxWords) throw new Error('overlapWords must be in [0, maxWords)');
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const pieces = section.text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .flatMap((p) => {
        const w = words(p);
        if (w.length <= maxWords) return [p];
        const runs: string[] = [];
        for (let i = 0; i < w.length; i += maxWords) runs.push(w.slice(i, i + maxWords).join(' '));
        return runs;
      });
    const bodies: string[] = [];
    let current: string[] = [];
    let count = 0;
    for (const piece of pieces) {
      const n = words(piece).length;
      if (count > 0 && count + n > maxWords) {
        bodies.push(current.join('\n\n'));
        current = [];
        count = 0;
      }
      current.push(piece);
      count += n;
    }
    if (current.length > 0) bodies.push(current.join('\n\n'));
    bodies.forEach((body, i) => {
      const overlap =
        i > 0 && overlapWords > 0
          ? words(bodies[i - 1] ?? '')
              .slice(-overlapWords)
              .join(' ') + ' '
          : '';
      chunks.push({
        id: `${section.id}#chunk-${i}`,
        documentId: section.id,
        chunkIndex: i,
        sectionTitle: section.title,
        sourcePath: section.file,
        content: overlap + body,
      });
    });
  }
  return chunks;
}
