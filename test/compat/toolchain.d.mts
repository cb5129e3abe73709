export const VERSIONS: Record<string, Record<string, string>>;
export function nodeBinary(major: string): string;
export function installedPackages(dependencies: Record<string, string>): string;
