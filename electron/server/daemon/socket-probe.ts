// Whether a server answers on a unix socket: the one test of "is a daemon running" that a stale
// socket file or a reused pid cannot fool.
import net from 'node:net';

/** Connects to `socketPath`; resolves the connected socket, or null when nobody answers. */
export function connectUnix(socketPath: string): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const onError = (): void => resolve(null);
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

export async function socketAnswers(socketPath: string): Promise<boolean> {
  const socket = await connectUnix(socketPath);
  socket?.destroy();
  return socket !== null;
}
