// Conformance scenarios for malformed and hostile input: undecodable frames, batches, odd ids,
// unknown methods, and the protocol violations that make the server drop the connection.
import type { RpcPeer } from '../support/rpc-peer';
import {
  QUIET_WINDOW_MS,
  answeredWithin,
  looseError,
  type Scenario,
  type ScenarioContext,
} from './scenario-kit';

/** The id member of the raw response text for request `marker` (kept as text: ids may exceed 2^53). */
function rawIdOf(peer: RpcPeer, method: string): string | undefined {
  const message = peer.inbound.find((m) => m.raw.includes(method));
  return message?.raw.match(/"id":(-?\d+|"[^"]*")/)?.[1];
}

/** Sends `violation`, then records whether the connection was dropped and still answers. */
async function recordViolation(ctx: ScenarioContext, violation: (peer: RpcPeer) => void, handshake = true) {
  const peer = await ctx.connect();
  if (handshake) await peer.handshake();
  violation(peer);
  if (ctx.transport === 'ws') {
    const closed = await peer.waitForClose();
    ctx.record('close code', closed.code);
    const other = await ctx.session();
    ctx.record('server still serves new connections', await other.peer.request('environment/status'));
  } else {
    const id = peer.sendRequest('environment/status');
    ctx.record('answered after violation', await answeredWithin(peer, id, QUIET_WINDOW_MS));
  }
}

export const inputScenarios: Scenario[] = [
  {
    name: 'input: undecodable text, batches and several values get -32600 with id -1; the connection stays',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const frames = [
        'not json',
        '[]',
        '[{"id":1,"method":"environment/status"}]',
        '{"id":1}{"id":2}',
        '42',
        '"str"',
        '{',
      ];
      for (const frame of frames) {
        const before = peer.inbound.length;
        peer.sendText(frame);
        const answer = await peer.messageAt(before);
        ctx.record(`frame ${frame}`, looseError(answer.message));
      }
      ctx.record('still served', await peer.request('environment/status'));
    },
  },
  {
    name: 'input: ids — float and null refused, strings, negatives and big integers echoed exactly',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const badIds: Array<[string, string]> = [
        ['float id', '1.5'],
        ['null id', 'null'],
      ];
      for (const [label, id] of badIds) {
        const before = peer.inbound.length;
        peer.sendText(`{"id":${id},"method":"environment/status"}`);
        ctx.record(label, looseError((await peer.messageAt(before)).message));
      }
      ctx.record('string id', await peer.request('environment/status', undefined, { id: 'abc' }));
      ctx.record('empty string id', await peer.request('environment/status', undefined, { id: '' }));
      ctx.record('negative id', await peer.request('environment/status', undefined, { id: -7 }));
      peer.sendText('{"id":9007199254740993,"method":"environment/info"}');
      await peer.waitFor((m) => m.raw.includes('"shell"'), 'environment/info response');
      ctx.record('2^53+1 id as sent', rawIdOf(peer, '"shell"'));
    },
  },
  {
    name: 'input: envelope members — jsonrpc ignored, never sent; unknown members ignored; params shapes',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      peer.send({ jsonrpc: '1.0', id: 'j', method: 'environment/status', extra: { x: 1 } });
      const answer = await peer.response('j');
      ctx.record('answer', answer);
      ctx.record('answer members', Object.keys(answer).sort());
      ctx.record('array params', looseError(await peer.request('environment/status', [])));
      ctx.record('string params', looseError(await peer.request('environment/status', 'x')));
      ctx.record('start with array params', looseError(await peer.request('process/start', [])));
      ctx.record('method not a string', looseError(await sendAndAwait(peer, '{"id":"m","method":5}', 'm')));
    },
  },
  {
    name: 'input: unknown methods are -32601, before and after the handshake',
    run: async (ctx) => {
      const peer = await ctx.connect();
      const before = await peer.request('bogus/method', {});
      ctx.record('before initialize', looseError(before));
      await peer.handshake();
      for (const method of ['bogus/method', 'process/list', 'fs/stat', 'ping', '']) {
        const answer = await peer.request(method, {});
        if (method && !answer.error?.message.includes(method)) {
          throw new Error(`-32601 message should name the method ${method}: ${answer.error?.message}`);
        }
        ctx.record(`method ${method}`, looseError(answer));
      }
    },
  },
  {
    name: 'violation: a notification other than initialized drops the connection',
    run: (ctx) => recordViolation(ctx, (peer) => peer.notify('process/start', {})),
  },
  {
    name: 'violation: initialized before initialize drops the connection',
    run: (ctx) => recordViolation(ctx, (peer) => peer.notify('initialized', {}), false),
  },
  {
    name: 'violation: a client-sent response drops the connection',
    run: (ctx) => recordViolation(ctx, (peer) => peer.send({ id: 77, result: {} })),
  },
  {
    name: 'violation: a client-sent error object drops the connection',
    run: (ctx) => recordViolation(ctx, (peer) => peer.send({ id: 78, error: { code: 1, message: 'x' } })),
  },
  {
    name: 'input: deep nesting is refused, the connection stays',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const deep = `{"id":5,"method":"environment/status","params":{"a":${'['.repeat(300)}${']'.repeat(300)}}}`;
      peer.sendText(deep);
      const answer = await peer.waitFor((m) => 'error' in m.message, 'nesting error');
      ctx.record('deep', looseError(answer.message));
      ctx.record('still served', await peer.request('environment/status'));
    },
  },
  {
    name: 'ws: binary frames with JSON are served; invalid UTF-8 is refused; plain GET is 400',
    transports: ['ws'],
    run: async (ctx) => {
      const { peer } = await ctx.session();
      peer.sendBytes(Buffer.from('{"id":"bin","method":"environment/status"}'));
      ctx.record('binary json', await peer.response('bin'));
      peer.sendBytes(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
      await peer
        .waitFor((m) => 'error' in m.message || m.message.id === -1, 'answer to invalid UTF-8', 3_000)
        .then(
          (m) => ctx.record('invalid utf-8', looseError(m.message)),
          () => ctx.record('invalid utf-8', 'no answer'),
        );
      ctx.record('still open', peer.isClosed ? 'closed' : await peer.request('environment/status'));
      const url = new URL(ctx.server().url as string);
      const plain = await fetch(`http://${url.host}/`);
      ctx.record('plain GET /', { status: plain.status, body: await plain.text() });
    },
  },
  {
    name: 'stdio: blank lines ignored, CRLF tolerated, a split line waits for its newline',
    transports: ['stdio'],
    run: async (ctx) => {
      const peer = await ctx.connect();
      peer.sendBytes(Buffer.from('\n\n   \n'));
      peer.sendBytes(Buffer.from('{"id":1,"method":"initialize","params":{"clientName":"c"}}\r\n'));
      ctx.record('crlf initialize', await peer.response(1));
      peer.sendBytes(Buffer.from('{"method":"initialized"}\n{"id":2,"method":"environm'));
      ctx.record('partial line unanswered', await answeredWithin(peer, 2, QUIET_WINDOW_MS));
      peer.sendBytes(Buffer.from('ent/status"}\n'));
      ctx.record('completed line', await peer.response(2));
    },
  },
];

/** The next message the server sends after `text`: its answer echoes `id` or, where the id could
 *  not be read, carries -1 or null — waiting for `id` alone would sit out the whole timeout. */
async function sendAndAwait(peer: RpcPeer, text: string, id: string) {
  const before = peer.inbound.length;
  peer.sendText(text);
  const answer = (await peer.messageAt(before)).message;
  if (answer.id !== id && answer.id !== -1 && answer.id !== null) {
    throw new Error(`unexpected answer to ${text}: ${JSON.stringify(answer)}`);
  }
  return answer;
}
