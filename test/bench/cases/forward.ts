// Case: port forwarding. A download of N bytes and small request/response round trips (a new
// connection each, as a browser without keep-alive) through a Tether forward over a WebSocket
// environment and over an SSH environment (tetherStreams through the daemon), against `ssh -L` to
// the same sshd in the same run. The target is a TCP server on 127.0.0.1. Contenders take turns.
import { existsSync } from 'node:fs';
import net from 'node:net';
import { PortForward } from '../../../electron/client/forwarding/port-forward';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { SSHD_BINARY, SshTestRig } from '../../support/sshd';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { startHelper, withTimeout, type Helper } from '../lib/child';
import type { CaseRecorder } from '../lib/results';
import { elapsedMs, mbPerSecond, quantile } from '../lib/stats';

const WS_DOWNLOAD = 'tether forward · ws environment · download';
const SSH_ENV_DOWNLOAD = 'tether forward · ssh environment · download';
/** The row recorded (and excused by the harness) when this machine has no sshd. */
export const FORWARD_SSH_L_ROW = 'ssh -L · download';
const SSH_L_DOWNLOAD = FORWARD_SSH_L_ROW;
const WS_REQUEST = 'tether forward · ws environment · request on a new connection';
const SSH_ENV_REQUEST = 'tether forward · ssh environment · request on a new connection';
const SSH_L_REQUEST = 'ssh -L · request on a new connection';
/** The request and response of a round trip: about an HTTP request and a small JSON answer. */
const REQUEST = Buffer.from('GET /api HTTP/1.1\r\nHost: localhost\r\n\r\n');
const RESPONSE = Buffer.alloc(512, 0x61);

/** A TCP server on 127.0.0.1: `d<size>` downloads that many bytes; anything else gets RESPONSE. */
async function target(): Promise<net.Server> {
  const payload = Buffer.alloc(4 * 1024 * 1024, 0x5a);
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    socket.once('data', (first: Buffer) => {
      if (first[0] !== 0x64) {
        socket.end(RESPONSE);
        return;
      }
      let left = Number(first.subarray(1).toString());
      const pump = (): void => {
        while (left > 0) {
          const piece = payload.subarray(0, Math.min(left, payload.length));
          left -= piece.length;
          if (!socket.write(piece)) {
            socket.once('drain', pump);
            return;
          }
        }
        socket.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Downloads `bytes` through 127.0.0.1:port; ms from connect to the end. */
function download(port: number, bytes: number): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(`d${bytes}`));
    let got = 0;
    socket.on('data', (chunk: Buffer) => (got += chunk.length));
    socket.on('error', reject);
    socket.on('end', () => {
      if (got === bytes) resolve(elapsedMs(started));
      else reject(new Error(`received ${got} of ${bytes} bytes`));
    });
  });
}

/** One request on a new connection; ms from connect to the whole answer. */
function request(port: number): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(REQUEST));
    socket.setNoDelay(true);
    let got = 0;
    socket.on('data', (chunk: Buffer) => (got += chunk.length));
    socket.on('error', reject);
    socket.on('end', () => {
      if (got === RESPONSE.length) resolve(elapsedMs(started));
      else reject(new Error(`answer of ${got} bytes`));
    });
  });
}

/** A free local port (bound and released), for `ssh -L`. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** `ssh -N -L` to the rig host; resolves once its local port accepts. */
async function sshL(
  rig: SshTestRig,
  alias: string,
  targetPort: number,
  timeoutMs: number,
): Promise<{ port: number; helper: Helper }> {
  const port = await freePort();
  const helper = startHelper('ssh', [
    ...rig.sshOptions,
    '-N',
    '-o',
    'ExitOnForwardFailure=yes',
    '-L',
    `127.0.0.1:${port}:127.0.0.1:${targetPort}`,
    alias,
  ]);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (accepted) return { port, helper };
    if (helper.child.exitCode !== null || Date.now() > deadline) {
      await helper.stop();
      throw new Error('ssh -L did not start listening');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Contender {
  name: string;
  port: number;
}

async function measure(
  context: BenchContext,
  recorder: CaseRecorder,
  downloads: Contender[],
  requests: Contender[],
): Promise<void> {
  const { bytes, runs, requests: requestCount, runTimeoutMs } = context.config.forward;
  for (const contender of downloads) await download(contender.port, 64 * 1024);
  const rates = new Map<string, number[]>(downloads.map((c) => [c.name, []]));
  for (let run = 0; run < runs; run++) {
    for (const contender of downloads) {
      const ms = await withTimeout(download(contender.port, bytes), runTimeoutMs, contender.name);
      rates.get(contender.name)!.push(mbPerSecond(bytes, ms));
    }
  }
  for (const contender of downloads) {
    const list = rates.get(contender.name)!;
    recorder.ok(contender.name, 'MB/s', list);
    context.log(`  ${contender.name}: ${list.map((v) => v.toFixed(1)).join(', ')} MB/s`);
  }
  const latencies = new Map<string, number[]>(requests.map((c) => [c.name, []]));
  for (let i = 0; i < requestCount; i++) {
    for (const contender of requests) {
      latencies
        .get(contender.name)!
        .push(await withTimeout(request(contender.port), runTimeoutMs, contender.name));
    }
  }
  for (const contender of requests) {
    const list = latencies.get(contender.name)!;
    recorder.ok(contender.name, 'ms', list, { 'p99 ms': [quantile(list, 0.99)] });
    context.log(`  ${contender.name}: p50 ${quantile(list, 0.5).toFixed(3)} ms`);
  }
}

function judge(recorder: CaseRecorder): void {
  const times = (v: number): string => `${v.toFixed(2)}×`;
  const sshEnv = recorder.ratio('forward over ssh environment / ssh -L', SSH_ENV_DOWNLOAD, SSH_L_DOWNLOAD);
  recorder.goal(
    'download through an SSH environment ≥ 0.9× ssh -L (same run)',
    sshEnv,
    (v) => v >= 0.9,
    times,
    "the chain adds two Node processes (host daemon, client) to ssh -L's ssh and sshd; none is CPU-bound, " +
      'each waits for its turn on the CPU (docs/forwarding.md, Performance)',
  );
  const ws = recorder.ratio('forward over ws / ssh -L', WS_DOWNLOAD, SSH_L_DOWNLOAD);
  recorder.goal(
    'download through a ws environment ≥ 1× ssh -L (same run)',
    ws,
    (v) => v >= 1,
    times,
    'each 64 KiB is a data frame through two event loops and a 2 MiB credit window; a wider window filled ' +
      'queues, not the link (docs/forwarding.md, Performance)',
  );
  const wsLatency = recorder.ratio('request p50 over ws / ssh -L', WS_REQUEST, SSH_L_REQUEST);
  recorder.goal('request latency p50 over ws ≤ 1.2× ssh -L', wsLatency, (v) => v <= 1.2, times);
  const sshLatency = recorder.ratio(
    'request p50 over ssh environment / ssh -L',
    SSH_ENV_REQUEST,
    SSH_L_REQUEST,
  );
  recorder.goal(
    'request latency p50 over an SSH environment ≤ 1.2× ssh -L',
    sshLatency,
    (v) => v <= 1.2,
    times,
  );
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, runs, requests, connectTimeoutMs } = context.config.forward;
  recorder.setup(
    `A TCP server on 127.0.0.1 as the target; ${runs} download(s) of ${bytes / 1_048_576} MiB and ${requests} ` +
      'request(s) of 40 B answered with 512 B (a new connection each) through each contender, in turns: a ' +
      'Tether forward over a ws environment (Tether’s server on 127.0.0.1), one over an SSH environment ' +
      '(real sshd on 127.0.0.1, the daemon dials), and `ssh -N -L` to the same sshd.',
  );
  const server: StartedServer = await startServer('tether', 'ws');
  const targetServer = await target();
  const targetPort = (targetServer.address() as net.AddressInfo).port;
  const clients: RemoteExecServerClient[] = [];
  const forwards: PortForward[] = [];
  const rig = existsSync(SSHD_BINARY) ? new SshTestRig() : null;
  let reference: Helper | null = null;
  try {
    const wsClient = new RemoteExecServerClient({
      transport: server.transportSpec(),
      clientName: 'tether-bench',
    });
    clients.push(wsClient);
    await wsClient.connect();
    const wsForward = await PortForward.start(wsClient, {
      target: { host: '127.0.0.1', port: targetPort },
      localPort: 0,
    });
    forwards.push(wsForward);
    const downloads: Contender[] = [{ name: WS_DOWNLOAD, port: wsForward.localPort }];
    const requestsTo: Contender[] = [{ name: WS_REQUEST, port: wsForward.localPort }];
    if (rig) {
      const host = await rig.startHost({ alias: 'bench-forward' });
      rig.trustHost(host);
      recorder.command(
        `ssh ${rig.sshOptions.join(' ')} -N -L 127.0.0.1:PORT:127.0.0.1:${targetPort} ${host.alias}`,
      );
      const sshClient = new RemoteExecServerClient({
        transport: { kind: 'ssh', destination: host.alias, sshOptions: rig.sshOptions },
        clientName: 'tether-bench',
      });
      clients.push(sshClient);
      await withTimeout(sshClient.connect(), connectTimeoutMs, 'ssh environment connect');
      const sshForward = await PortForward.start(sshClient, {
        target: { host: '127.0.0.1', port: targetPort },
        localPort: 0,
      });
      forwards.push(sshForward);
      const direct = await sshL(rig, host.alias, targetPort, connectTimeoutMs);
      reference = direct.helper;
      downloads.push(
        { name: SSH_ENV_DOWNLOAD, port: sshForward.localPort },
        { name: SSH_L_DOWNLOAD, port: direct.port },
      );
      requestsTo.push(
        { name: SSH_ENV_REQUEST, port: sshForward.localPort },
        { name: SSH_L_REQUEST, port: direct.port },
      );
    } else {
      recorder.missing(
        SSH_L_DOWNLOAD,
        'MB/s',
        'skipped',
        `${SSHD_BINARY} is missing (apt-get install openssh-server)`,
      );
    }
    context.log('forward throughput and request latency');
    await measure(context, recorder, downloads, requestsTo);
  } finally {
    for (const forward of forwards) await forward.stop();
    for (const client of clients) await client.close();
    await reference?.stop();
    await rig?.close();
    targetServer.close();
    await server.stop();
  }
  judge(recorder);
}

export const forwardCase: BenchCase = {
  id: 'forward',
  title: 'Port forwarding against ssh -L: download throughput, request latency',
  run,
};
