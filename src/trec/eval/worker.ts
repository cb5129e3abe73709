// A worker of parallel.ts: takes the qrels the main thread parsed, then pieces of the run until none is left, and posts the values.
import { parentPort, workerData } from 'node:worker_threads';

import { TrecEvaluator } from './engine.js';
import { TrecOutput } from './output.js';
import { qrelsFromShared, type SharedQrelsColumns } from '../columns.js';
import { packOutcome, type PartReply, type PartRequest } from './parallel.js';
import { linesFor, measureClaimedPieces } from './part.js';

const parsedQrels = new Promise<SharedQrelsColumns>((resolve) =>
  parentPort?.once('message', (message: SharedQrelsColumns) => resolve(message)),
);

async function measurePieces(request: PartRequest): Promise<PartReply> {
  try {
    // The main thread reads and parses the qrels; its columns and the file's bytes come in shared memory.
    const qrels = qrelsFromShared(await parsedQrels);
    const evaluator = new TrecEvaluator(request.plan, request.settings, new TrecOutput({ write: () => true }));
    const pieces = { ...request, claims: new Int32Array(request.claims) };
    const lines = linesFor(evaluator, request.size / request.threads);
    return packOutcome(measureClaimedPieces(pieces, qrels, evaluator, request.maxCarry, lines), evaluator.times);
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

void measurePieces(workerData as PartRequest).then((reply) => {
  parentPort?.postMessage(
    reply,
    reply.kind === 'done'
      ? [reply.values, reply.measured, reply.lineBytes, reply.lineSpans].map((array) => array.buffer as ArrayBuffer)
      : [],
  );
});
