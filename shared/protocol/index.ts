// The exec-server protocol contract: method names, schemas, error codes and the method table.
export * from './methods';
export * from './errors';
export * from './schemas';
export * from './method-table';
export * from './validation';
export * from './terminal-eof';
export * from './data-frame';
export * from './json-limits';
export * from './flow-control';
export * from './stream-framing';
export * from './stream-channel';
