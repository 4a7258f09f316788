import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OPERATOR_NOT_FOUND, OperatorCredentials } from '@app/application';
import { WORKSPACE_MESSAGES } from '@app/domain';
import { OperatorOnly, RequiresRole } from '../http/auth';
import { ApiErrors, ApiIdParam, ApiOperatorAuth } from '../openapi/decorators';
import { CreateOperatorDto, OPERATOR_ROLE_MESSAGE } from './create-operator/create-operator.dto';
import { CreatedOperatorSchema, OperatorListSchema, OperatorSchema } from './operators.schema';

/**
 * Operator credentials (docs/operations.md, Operator credentials): named tokens with a role,
 * managed by operators only; an auditor cannot even list them.
 */
@ApiTags('Operator credentials')
@ApiOperatorAuth()
@Controller('admin/operators')
@OperatorOnly()
export class OperatorsController {
  constructor(private readonly operators: OperatorCredentials) {}

  @Post()
  @HttpCode(201)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Create an operator credential',
    description: 'The token is in this response only: the service keeps its SHA-256 and cannot show it again.',
  })
  @ApiCreatedResponse({ type: CreatedOperatorSchema })
  @ApiErrors({ 400: [WORKSPACE_MESSAGES.nameRequired, OPERATOR_ROLE_MESSAGE] })
  create(@Body() body: CreateOperatorDto) {
    return this.operators.create(body.name, body.role);
  }

  @Get()
  @RequiresRole('operator')
  @ApiOperation({ summary: 'List operator credentials', description: 'Revoked ones included; never a token.' })
  @ApiOkResponse({ type: OperatorListSchema })
  list() {
    return this.operators.list();
  }

  @Post(':operatorId/revoke')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Revoke an operator credential',
    description: 'Refused from the next request on, on every process (and its console sessions end).',
  })
  @ApiIdParam('operatorId', 'Operator credential id', 'opr_8Hj2Kl4Mn6Pq8Rs0Tu2V')
  @ApiOkResponse({ type: OperatorSchema })
  @ApiErrors({ 404: OPERATOR_NOT_FOUND })
  revoke(@Param('operatorId') operatorId: string) {
    return this.operators.revoke(operatorId);
  }
}
