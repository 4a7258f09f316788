import { randomUUID } from 'node:crypto';
import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
import { ApiKey, DATABASE, type SqliteDatabase } from './database';
import { CreateProjectDto } from './create-project.dto';

export interface Project {
  id: string;
  name: string;
  description: string;
  status: string;
  start_date: string;
  end_date: string | null;
  created: number;
  updated: number;
  archived: boolean;
  external_id: string | null;
  laanc_number: string | null;
  created_by: {
    id: string;
    email: string | null;
    first_name: string | null;
    last_name: string | null;
    profile_picture: string | null;
  };
}

export interface ProjectPage {
  projects: Project[];
  count: number;
  cursor: string | null;
}

const PAGE_SIZE = 50;

/** Projects as JSON documents in one table, listed in creation order by an index on (workspace, seq). */
@Injectable()
export class ProjectsService {
  private readonly insert: Statement<[string, string, string]>;
  private readonly byId: Statement<[string, string], { data: string }>;
  private readonly page: Statement<[string, number, number], { seq: number; data: string }>;

  constructor(@Inject(DATABASE) db: SqliteDatabase) {
    this.insert = db.prepare('INSERT INTO projects (id, workspace_id, data) VALUES (?, ?, ?)');
    this.byId = db.prepare('SELECT data FROM projects WHERE id = ? AND workspace_id = ?');
    this.page = db.prepare(
      'SELECT seq, data FROM projects WHERE workspace_id = ? AND archived = 0 AND seq > ? ORDER BY seq LIMIT ?',
    );
  }

  create(key: ApiKey, dto: CreateProjectDto): string {
    if (dto.end_date && dto.end_date <= dto.start_date)
      throw new BadRequestException('end_date must be after start_date');
    const now = Date.now();
    const project: Project = {
      id: `prj_${randomUUID()}`,
      name: dto.name,
      description: dto.description,
      status: dto.status,
      start_date: dto.start_date,
      end_date: dto.end_date ?? null,
      created: now,
      updated: now,
      archived: false,
      external_id: dto.external_id ?? null,
      laanc_number: null,
      created_by: { id: key.key_id, email: null, first_name: key.name, last_name: null, profile_picture: null },
    };
    this.insert.run(project.id, key.workspace_id, JSON.stringify(project));
    return project.id;
  }

  find(workspaceId: string, id: string): Project | undefined {
    const row = this.byId.get(id, workspaceId);
    return row && (JSON.parse(row.data) as Project);
  }

  /** A page of non-archived projects after `cursor` (the base64url of the last one's seq). */
  list(workspaceId: string, cursor?: string): ProjectPage {
    const after = cursor ? Number(Buffer.from(cursor, 'base64url').toString()) || 0 : 0;
    const rows = this.page.all(workspaceId, after, PAGE_SIZE + 1);
    const shown = rows.slice(0, PAGE_SIZE);
    return {
      projects: shown.map((row) => JSON.parse(row.data) as Project),
      count: shown.length,
      cursor: rows.length > PAGE_SIZE ? Buffer.from(String(shown[shown.length - 1].seq)).toString('base64url') : null,
    };
  }
}
