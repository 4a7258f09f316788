/**
 * Errors a decision can end in. The HTTP adapter maps each kind to a status code;
 * the domain only says what went wrong, in the words the API spec uses.
 */
export type DomainErrorKind = 'validation' | 'not_found' | 'limit_reached' | 'conflict' | 'precondition_failed';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string) => new DomainError('validation', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const limitReached = (message: string) => new DomainError('limit_reached', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const preconditionFailed = (message: string) => new DomainError('precondition_failed', message);
