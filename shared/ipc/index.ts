// The renderer ↔ AppService contract, its Electron channel names, and its framing over the web
// host's WebSocket.
export * from './contract';
export * from './bridge';
export * from './pane-layout';
export * from './terminal-settings';
export * from './terminal-profile';
export * from './channels';
export * from './web-protocol';
