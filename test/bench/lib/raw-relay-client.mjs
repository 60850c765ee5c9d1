// The timed half of the raw binary WebSocket ceiling: a process of its own, like `tether run`,
// that connects to raw-relay-server.ts, names the program to run, and writes every binary message
// to its stdout (pausing the socket while stdout is full) until the text message `end`. Plain
// JavaScript on purpose: no TypeScript loader, so its start-up costs what the bundled CLI's does.
// Run: node raw-relay-client.mjs URL -- ARGV...
import process from 'node:process';
import WebSocket from 'ws';

const [url, separator, ...argv] = process.argv.slice(2);
if (!url || separator !== '--' || argv.length === 0) {
  process.stderr.write('usage: raw-relay-client.mjs URL -- ARGV...\n');
  process.exit(2);
}
const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 0, skipUTF8Validation: true });
ws.once('open', () => ws.send(JSON.stringify(argv)));
ws.on('message', (data, isBinary) => {
  if (!isBinary) {
    ws.close();
    process.stdout.write('', () => process.exit(0));
    return;
  }
  if (!process.stdout.write(data)) {
    ws.pause();
    process.stdout.once('drain', () => ws.resume());
  }
});
ws.once('error', (error) => {
  process.stderr.write(`raw-relay-client: ${error.message}\n`);
  process.exit(1);
});
