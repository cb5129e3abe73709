// A worker of parallel.ts: reads the qrels, measures its part of the run, posts the values.
import { parentPort, workerData } from 'node:worker_threads';

import { TrecEvaluator } from './engine.js';
import { TrecOutput } from './output.js';
import { TrecFormatError } from '../errors.js';
import { qrelsFromShared, type SharedQrelsColumns } from '../columns.js';
import { readText } from '../text.js';
import { packOutcome, type PartReply, type PartRequest } from './parallel.js';
import { measureRunRange } from './part.js';

const parsedQrels = new Promise<SharedQrelsColumns>((resolve) =>
  parentPort?.once('message', (message: SharedQrelsColumns) => resolve(message)),
);

async function measurePart(request: PartRequest): Promise<PartReply> {
  try {
    // The text is read here while the main thread parses it; its columns then come from the main thread.
    const text = await readText(request.qrelsPath, undefined, request.qrelsFile);
    const qrels = qrelsFromShared(text, await parsedQrels);
    const evaluator = new TrecEvaluator(request.plan, request.settings, new TrecOutput({ write: () => true }));
    const outcome = measureRunRange(request.runPath, request.start, request.end, qrels, evaluator, request.maxCarry);
    return packOutcome(outcome, evaluator.times);
  } catch (error) {
    if (error instanceof TrecFormatError) {
      return {
        kind: 'format-error',
        file: error.file,
        lineNumber: error.lineNumber,
        lineText: error.lineText,
        problem: error.problem,
      };
    }
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

void measurePart(workerData as PartRequest).then((reply) => {
  parentPort?.postMessage(
    reply,
    reply.kind === 'done'
      ? [reply.values, reply.measured, reply.lineBytes, reply.lineSpans].map((array) => array.buffer as ArrayBuffer)
      : [],
  );
});
