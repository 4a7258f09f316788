/** Calendar dates (YYYY-MM-DD, UTC) relative to today: job start dates may not be over 6 months old. */
const DAY = 86_400_000;

export const today = (): string => new Date().toISOString().slice(0, 10);

export const plusDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
