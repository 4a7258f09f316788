import { IsIn, IsISO8601, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';

export const STATUSES = [
  'draft',
  'not_started',
  'planned',
  'in_progress',
  'completed',
  'on_hold',
  'weather_delayed',
  'technical_issues',
  'cancelled',
  'aborted',
  'other',
];

export class CreateProjectDto {
  @IsString()
  @Length(1, 100)
  name: string;

  @IsString()
  description: string;

  @IsIn(STATUSES)
  status: string;

  @IsISO8601({ strict: true })
  start_date: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  end_date?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  external_id?: string;

  @ValidateIf((dto: CreateProjectDto) => dto.status === 'other')
  @IsString()
  @Length(1, 200)
  other_status_reason?: string;
}
