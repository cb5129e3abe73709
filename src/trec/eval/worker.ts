// A worker of parallel.ts: takes the qrels the main thread parsed, measures its part of the run, posts the values.
import { parentPort, workerData } from 'node:worker_threads';

import { TrecEvaluator } from './engine.js';
import { TrecOutput } from './output.js';
import { TrecFormatError } from '../errors.js';
import { qrelsFromShared, type SharedQrelsColumns } from '../columns.js';
import { packOutcome, type PartReply, type PartRequest } from './parallel.js';
import { measureRunRange } from './part.js';

const parsedQrels = new Promise<SharedQrelsColumns>((resolve) =>
  parentPort?.once('message', (message: SharedQrelsColumns) => resolve(message)),
);

async function measurePart(request: PartRequest): Promise<PartReply> {
  try {
    // The main thread reads and parses the qrels; its columns and the file's bytes come in shared memory.
    const qrels = qrelsFromShared(await parsedQrels);
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
