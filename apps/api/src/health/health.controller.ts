import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../http/auth.guard';
import { HealthSchema } from '../openapi/schemas/operations.schema';

@ApiTags('Observability')
@Controller()
export class HealthController {
  /** Liveness: answers once the service accepts requests. */
  @Get('health')
  @Public()
  @ApiOperation({
    summary: 'Liveness',
    description: 'Answers 200 once the service accepts requests. No authentication.',
  })
  @ApiOkResponse({ type: HealthSchema })
  health() {
    return { status: 'ok' };
  }
}
