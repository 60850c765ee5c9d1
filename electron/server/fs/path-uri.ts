// Parses the protocol's PathUri (absolute file:// URIs) into local paths and back, with codex's
// -32602 messages for relative and non-file URIs.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RpcError } from '../rpc/rpc-error';
import { errorMessage } from '../../../shared/error-message';

/** Local absolute path of a `file://` URI; throws -32602 for anything else. */
export function uriToPath(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw RpcError.invalidParams('invalid URI: relative URL without a base');
  }
  if (url.protocol !== 'file:') {
    throw RpcError.invalidParams(`unsupported path URI scheme \`${url.protocol.slice(0, -1)}\``);
  }
  try {
    return path.normalize(fileURLToPath(url));
  } catch (error) {
    throw RpcError.invalidParams(`invalid file URI: ${errorMessage(error)}`);
  }
}

/** `file://` URI of a local absolute path. */
export function pathToUri(localPath: string): string {
  return pathToFileURL(localPath).href;
}
