/** A refusal the dashboard answers with a page of its own (dashboard-exception.filter.ts). */
export class DashboardProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'DashboardProblem';
  }
}

export const SIGN_IN_REQUIRED = () =>
  new DashboardProblem(
    401,
    'Sign in required',
    'You are not signed in, or your session has ended. Open a new sign-in link to continue.',
  );

export const CSRF_REFUSED = () =>
  new DashboardProblem(
    403,
    'Request refused',
    'This form could not be accepted: it did not come from a page of this dashboard or it has expired. Go back, reload the page and try again.',
  );

export const NOT_ALLOWED = (what: string) =>
  new DashboardProblem(403, 'Not allowed', `Your role does not allow you to ${what}.`);

export const LINK_REFUSED = () =>
  new DashboardProblem(
    400,
    'This sign-in link does not work',
    'The link is unknown, has expired or has already been used. Sign-in links work once, for a few minutes: ask your operator for a new one.',
  );
