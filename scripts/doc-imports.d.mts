export interface DocImport {
  entry: string;
  names: string[];
  line: number;
}
export function docImports(markdown: string): DocImport[];
export function importsModule(pages: { source: string; markdown: string }[]): string;
