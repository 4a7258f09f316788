import { Controller, Get } from '@nestjs/common';
import { Public } from '../http/auth.guard';

@Controller()
export class HealthController {
  /** Liveness: answers once the service accepts requests. */
  @Get('health')
  @Public()
  health() {
    return { status: 'ok' };
  }
}
