// Base64 ↔ bytes for process output and file chunks, using the native Uint8Array.fromBase64 /
// toBase64 when the engine has them and a plain atob/btoa path otherwise.

interface Base64Uint8ArrayConstructor {
  fromBase64?: (text: string) => Uint8Array;
}
interface Base64Uint8Array {
  toBase64?: () => string;
}

export function decodeBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as Base64Uint8ArrayConstructor).fromBase64;
  if (native) return native(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Slice size for the String.fromCharCode fallback: bounded so the argument list stays small. */
const ENCODE_SLICE = 0x8000;

export function encodeBase64(bytes: Uint8Array): string {
  const native = (bytes as unknown as Base64Uint8Array).toBase64;
  if (native) return native.call(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += ENCODE_SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + ENCODE_SLICE));
  }
  return btoa(binary);
}
