// Converts between the absolute POSIX paths the app uses and the file:// URIs on the wire.
// Works on the string alone: the server's filesystem, not ours, gives the path its meaning.
import { ClientError } from '../client-error';

export function toPathUri(path: string): string {
  if (!path.startsWith('/')) {
    throw new ClientError('invalidArgument', `Expected an absolute path on the server, got "${path}".`);
  }
  // Encode every segment: the URL pathname setter would leave a literal '%' undecodable.
  return `file://${path.split('/').map(encodeURIComponent).join('/')}`;
}

export function fromPathUri(uri: string): string {
  const url = new URL(uri);
  if (url.protocol !== 'file:') {
    throw new ClientError('protocol', `The server sent a path that is not a file:// URI: ${uri}`);
  }
  return decodeURIComponent(url.pathname);
}
