import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, Credentials, OperatorOnly, RequiresRole } from './auth';
import { AuthError } from './errors';

@OperatorOnly()
class Routes {
  @RequiresRole('auditor')
  read() {}

  @RequiresRole('operator')
  write() {}

  undeclared() {}
}

const contextOf = (handler: keyof Routes, credentials: Credentials) =>
  ({
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => ({ method: 'POST', credentials }) }),
  }) as unknown as ExecutionContext;

const auditor: Credentials = {
  presented: 'opk_auditor',
  operator: true,
  operatorIdentity: { id: 'opr_1', name: 'Auditor', role: 'auditor' },
  apiKey: null,
};

describe('AuthGuard on operator routes', () => {
  const guard = new AuthGuard(new Reflector());
  const codeOf = (run: () => unknown) => {
    try {
      run();
      return 'allowed';
    } catch (error) {
      return error instanceof AuthError ? error.code : error;
    }
  };

  it('lets an auditor through to the routes declared for auditors only; an undeclared route needs the operator', () => {
    expect(codeOf(() => guard.canActivate(contextOf('read', auditor)))).toBe('allowed');
    expect(codeOf(() => guard.canActivate(contextOf('write', auditor)))).toBe('operator_role_required');
    expect(codeOf(() => guard.canActivate(contextOf('undeclared', auditor)))).toBe('operator_role_required');
    const operator = { ...auditor, operatorIdentity: { id: 'opr_2', name: 'Ops', role: 'operator' as const } };
    expect(codeOf(() => guard.canActivate(contextOf('undeclared', operator)))).toBe('allowed');
  });

  it('answers an operator credential that could not be checked with the store’s failure, a wrong token with 403', () => {
    const down = new Error('operator store unavailable');
    const unchecked: Credentials = {
      presented: 'opk_x',
      operator: false,
      operatorIdentity: null,
      apiKey: null,
      unavailable: down,
    };
    expect(codeOf(() => guard.canActivate(contextOf('read', unchecked)))).toBe(down);
    const wrong: Credentials = {
      presented: 'adm_wrong',
      operator: false,
      operatorIdentity: null,
      apiKey: null,
      unavailable: down,
    };
    expect(codeOf(() => guard.canActivate(contextOf('read', wrong)))).toBe('invalid_admin_token');
  });
});
