// The renderer ↔ AppService contract.
export * from './contract';
