// A stdio server reached through a TCP hop, so a FaultProxy can shape its byte stream: a listener
// on 127.0.0.1 that starts the server command for each connection and joins the socket to its
// stdin/stdout, and the client-side command (a Node one-liner) that joins its own stdin/stdout to
// a socket. Stopped by pid, children included.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface StdioOverTcp {
  port: number;
  close(): Promise<void>;
}

export async function startStdioOverTcp(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<StdioOverTcp> {
  const children = new Set<ChildProcess>();
  const server = net.createServer((socket) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env });
    children.add(child);
    socket.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    socket.pipe(child.stdin);
    child.stdout.pipe(socket);
    socket.once('close', () => child.stdin.end());
    child.once('exit', () => {
      children.delete(child);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      server.close();
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

/** The argv of a client-side stdio command whose stdin/stdout are a socket to 127.0.0.1:`port`. */
export function tcpStdioCommand(port: number): string[] {
  const script =
    "const s=require('node:net').connect(Number(process.argv[1]),'127.0.0.1');" +
    "process.stdin.pipe(s);s.pipe(process.stdout);s.on('error',()=>process.exit(1));" +
    "s.on('close',()=>process.exit(0));";
  return [process.execPath, '-e', script, String(port)];
}
