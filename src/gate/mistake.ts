// A mistake in the reporter options or the environment (`tolerence`, RAG_BASELINE=updte), as the
// runners should show it: one line that starts with `rag-matchers:`, and no stack, since every frame
// would be ours, in dist/, and none would help the user.

const PREFIX = 'rag-matchers:';

/** True for the errors the options and environment checks throw (TypeError, RangeError); a bug keeps its stack. */
export function isMistake(error: unknown): error is Error {
  return error instanceof TypeError || error instanceof RangeError;
}

/** The error, reworded to start with `rag-matchers:` and stripped of its stack (its `stack` is the line). */
export function asMistake(error: unknown): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const line = original.message.startsWith('rag-matchers') ? original.message : `${PREFIX} ${original.message}`;
  const mistake = new (original instanceof RangeError ? RangeError : TypeError)(line);
  // Jest prints `stack`, and Vitest's logger the message: both show the line alone.
  return withStack(mistake, line);
}

/**
 * `error` with its stack cut to `TypeError: message`, for a mistake thrown while a config file loads:
 * the runners print that line under their banner, without our frames.
 */
export function withoutStack<E extends Error>(error: E): E {
  return withStack(error, `${error.name}: ${error.message}`);
}

function withStack<E extends Error>(error: E, stack: string): E {
  Object.defineProperty(error, 'stack', { value: stack, writable: true, configurable: true });
  return error;
}
