import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import type { JobTypeList } from '@app/application';
import { DEFAULT_JOB_TYPE_ICON, JOB_TYPE_LIMITS as L, JobTypeView } from '@app/domain';
import { EXAMPLE, NextCursor, PageCount } from './common.schema';

export const JOB_TYPE_FIELD = {
  name: {
    type: String,
    minLength: L.name.min,
    maxLength: L.name.max,
    description: 'Display name',
    example: 'Substation survey',
  },
  icon: {
    type: String,
    minLength: L.icon.min,
    maxLength: L.icon.max,
    default: DEFAULT_JOB_TYPE_ICON,
    description:
      'An icon name from the Lucide set (e.g. `wind`, `radio`, `home`, `zap`, `sun`, `hammer`, `database`, `traffic-cone`, `settings`)',
    example: 'zap',
  },
} satisfies Record<string, ApiPropertyOptions>;

@ApiSchema({ name: 'JobType', description: 'A category of work: predefined or custom (docs/api.md, Job types).' })
export class JobTypeSchema implements JobTypeView {
  @ApiProperty({
    description: 'Readable for predefined types (e.g. `wind_turbine`), generated for custom ones',
    example: EXAMPLE.jobTypeId,
  })
  id!: string;

  @ApiProperty({ ...JOB_TYPE_FIELD.name, minLength: undefined })
  name!: string;

  @ApiProperty({ ...JOB_TYPE_FIELD.icon, default: undefined })
  icon!: string;

  @ApiProperty({ description: 'true for built-in types, false for custom ones', example: false })
  is_predefined!: boolean;
}

@ApiSchema({
  name: 'JobTypeList',
  description: 'A page of job types: the predefined catalogue first, then custom types.',
})
export class JobTypeListSchema implements JobTypeList {
  @ApiProperty({ type: () => [JobTypeSchema] })
  job_types!: JobTypeView[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}
