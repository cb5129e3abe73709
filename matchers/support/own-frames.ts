// A usage error's stack without the frames of this package: they all point into rag-matchers' own
// dist/ (usageError, argumentError, checkCutoff, the matcher), where nothing helps the user; the
// frame of their test is what the runners should show first.

/**
 * The folder of this module's file, read from a stack trace of this file (works in the ES and CommonJS
 * builds) at the first usage error, not as the module loads: Jest loads the matchers anew for every test
 * file and source-maps the stack it formats, reading the chunk's file again.
 */
let ownFolder: string | undefined;

function folderOfFirstFrame(stack: string): string | undefined {
  const frame = stack.split('\n').find((line) => /^\s+at /.test(line));
  const location = frame === undefined ? undefined : /\(?((?:file:\/\/)?\/[^():]*):\d+:\d+\)?$/.exec(frame)?.[1];
  if (location === undefined) return undefined;
  const slash = location.lastIndexOf('/');
  return slash <= 0 ? undefined : location.slice(0, slash + 1);
}

/** `error` with the stack lines that point into this package's folder removed (the message stays). */
export function withoutOwnFrames<E extends Error>(error: E): E {
  const stack = error.stack;
  const folder = (ownFolder ??= folderOfFirstFrame(new Error().stack ?? ''));
  if (folder === undefined || stack === undefined) return error;
  const kept = stack.split('\n').filter((line) => !(/^\s+at /.test(line) && line.includes(folder)));
  Object.defineProperty(error, 'stack', { value: kept.join('\n'), writable: true, configurable: true });
  return error;
}
