import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The operator's credential, compared by digest so the comparison takes the same time whatever
 * the presented token's length. Checked once per request, by the authentication hook
 * (authentication.ts), whose answer the guard, the idempotency scope and the rate limiter read.
 */
export class OperatorToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  matches(presented: string | undefined): boolean {
    return presented !== undefined && timingSafeEqual(digest(presented), this.expected);
  }
}
