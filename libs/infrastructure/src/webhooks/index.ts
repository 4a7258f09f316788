export * from './aes-gcm-secret-box';
