// A fake model server for `codex exec`: the OpenAI Responses API's `POST /v1/responses`, streamed
// as server-sent events, on 127.0.0.1. Its first answer makes codex call its `exec_command` tool
// with the command and environment the test chose; every later answer (codex reporting the tool's
// output) is held until `finish()`, so the agent's process keeps running under codex's session for
// as long as the test needs, and then ends the turn with a short message.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeResponsesApi {
  /** `http://127.0.0.1:PORT/v1`, the provider's base_url. */
  baseUrl: string;
  /** Requests served so far. */
  requests: () => number;
  /** Lets codex's held requests (and any later one) end the turn. */
  finish: () => void;
  close: () => Promise<void>;
}

export interface ToolCall {
  /** The shell command the agent runs. */
  cmd: string;
  /** The id of codex's environment (environments.toml) to run it in. */
  environmentId: string;
  tty: boolean;
}

type Event = Record<string, unknown> & { type: string };

export async function startFakeResponsesApi(call: ToolCall): Promise<FakeResponsesApi> {
  let served = 0;
  let finished = false;
  const held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404).end();
        return;
      }
      served++;
      const responseId = `resp_${served}`;
      // codex sends the tool's output back as a function_call_output item of the next request.
      const reportsToolOutput = body.includes('"function_call_output"');
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const item = reportsToolOutput
          ? {
              type: 'message',
              role: 'assistant',
              id: `msg_${served}`,
              content: [{ type: 'output_text', text: 'The command is running.' }],
            }
          : {
              type: 'function_call',
              id: `fc_${served}`,
              call_id: `call_${served}`,
              name: 'exec_command',
              arguments: JSON.stringify({
                cmd: call.cmd,
                environment_id: call.environmentId,
                tty: call.tty,
                yield_time_ms: 500,
              }),
            };
        const events: Event[] = [
          { type: 'response.created', response: { id: responseId } },
          { type: 'response.output_item.added', output_index: 0, item },
          { type: 'response.output_item.done', output_index: 0, item },
          {
            type: 'response.completed',
            response: {
              id: responseId,
              usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
            },
          },
        ];
        for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        res.end();
      };
      if (reportsToolOutput && !finished) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => served,
    finish: () => {
      finished = true;
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
