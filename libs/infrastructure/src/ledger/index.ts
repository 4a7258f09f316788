export * from './ed25519-ledger-signer';
