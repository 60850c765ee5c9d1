// A stdio "exec-server" for the hostile-server tests (see hostile-server.ts): answers initialize
// properly (agreeing to binary frames if told to), then writes the scripted lines, then raw bytes,
// then half a line and/or exits if told to. The script is base64 JSON in argv[2]:
// { lines: string[], cut: string | null, exit: boolean, binaryFrames?: boolean, raw?: base64 }.
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { createInterface } from 'node:readline';

const script = JSON.parse(Buffer.from(process.argv[2] ?? '', 'base64').toString('utf8'));
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  if (request.method !== 'initialize') return;
  const result = { sessionId: 'hostile-stdio', environmentInfo: { cwd: 'file:///' } };
  if (script.binaryFrames) result.tetherBinaryFrames = true;
  process.stdout.write(`${JSON.stringify({ id: request.id, result })}\n`);
  for (const text of script.lines) process.stdout.write(`${text}\n`);
  if (script.raw) process.stdout.write(Buffer.from(script.raw, 'base64'));
  if (script.cut !== null) process.stdout.write(script.cut);
  if (script.exit) process.stdout.end(() => process.exit(3));
});
