// The renderer ↔ AppService contract, and its framing over the web host's WebSocket.
export * from './contract';
export * from './web-protocol';
