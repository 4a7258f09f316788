import { ApiPropertyOptions } from '@nestjs/swagger';
import type { JobTypeList } from '@app/application';
import { DEFAULT_JOB_TYPE_ICON, JOB_TYPE_LIMITS as L, JobTypeView } from '@app/domain';
import { EXAMPLE, NEXT_CURSOR, PAGE_COUNT } from './common.schema';
import { schemaOf } from './schema-table';

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

export const JobTypeSchema = schemaOf<JobTypeView>(
  { name: 'JobType', description: 'A category of work: predefined or custom (docs/api.md, Job types).' },
  {
    id: {
      description: 'Readable for predefined types (e.g. `wind_turbine`), generated for custom ones',
      example: EXAMPLE.jobTypeId,
    },
    name: { ...JOB_TYPE_FIELD.name, minLength: undefined },
    icon: { ...JOB_TYPE_FIELD.icon, default: undefined },
    is_predefined: { description: 'true for built-in types, false for custom ones', example: false },
  },
);

export const JobTypeListSchema = schemaOf<JobTypeList>(
  { name: 'JobTypeList', description: 'A page of job types: the predefined catalogue first, then custom types.' },
  { job_types: { type: () => [JobTypeSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);
