import { PROJECT_MESSAGES as M, STATUS_MESSAGE } from '@app/domain';
import { fieldsTakenBy, refusal } from '../http/validation.spec-helper';
import { CreateProjectDto } from './create-project/create-project.dto';
import { PROJECT_FIELDS } from './project-field-rules';
import { UpdateProjectDto } from './update-project/update-project.dto';

const valid = { name: 'Dam inspection', start_date: '2030-01-01', description: '', status: 'planned' };

describe('project fields, declared once for create and update', () => {
  it('lists in each request exactly the fields the table gives it', () => {
    const takenBy = (request: 'create' | 'update') => fieldsTakenBy(PROJECT_FIELDS, request);
    expect(Object.keys(new CreateProjectDto()).sort()).toEqual(takenBy('create'));
    expect(Object.keys(new UpdateProjectDto()).sort()).toEqual(takenBy('update'));
  });

  it('requires on create what update leaves optional, in the order of the messages', () => {
    expect(refusal(CreateProjectDto, {})).toBe(M.nameRequired);
    expect(refusal(CreateProjectDto, { name: 'x' })).toBe(M.startDateRequired);
    expect(refusal(CreateProjectDto, { ...valid, description: undefined })).toBe(M.descriptionRequired);
    expect(refusal(CreateProjectDto, { ...valid, status: undefined })).toBe(STATUS_MESSAGE);
    expect(refusal(CreateProjectDto, valid)).toBeUndefined();
    expect(refusal(UpdateProjectDto, {})).toBeUndefined();
  });

  it('lets create send an empty description, and update not', () => {
    expect(refusal(CreateProjectDto, { ...valid, description: '' })).toBeUndefined();
    expect(refusal(UpdateProjectDto, { description: '' })).toBe(M.descriptionLength);
  });

  it('takes laanc_number on update only, where null clears it', () => {
    expect(refusal(CreateProjectDto, { ...valid, laanc_number: 'L-1' })).toBe('laanc_number is not an allowed field');
    expect(refusal(UpdateProjectDto, { laanc_number: null })).toBeUndefined();
    expect(refusal(UpdateProjectDto, { laanc_number: 'x'.repeat(101) })).toBe(M.laancNumberLength);
  });
});
