// Preloaded with NODE_OPTIONS=--import=<this file> to simulate a process killed in the middle of an
// atomic write: when the process is about to rename a file onto one named RAG_TEST_KILL_ON_RENAME (the
// temp file is written and synced, the target not yet replaced), it SIGKILLs itself. No clean-up code
// can run, exactly as with `kill -9` or a CI job cancelled at that instant.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const target = process.env.RAG_TEST_KILL_ON_RENAME;
if (target) {
  const hits = (destination) => path.basename(String(destination)) === target;
  const { rename } = fs.promises;
  fs.promises.rename = async (source, destination) => {
    if (hits(destination)) process.kill(process.pid, 'SIGKILL');
    return rename(source, destination);
  };
  const { renameSync } = fs;
  fs.renameSync = (source, destination) => {
    if (hits(destination)) process.kill(process.pid, 'SIGKILL');
    return renameSync(source, destination);
  };
}
