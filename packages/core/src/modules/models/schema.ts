import type { ModuleMigration, SqlExecutor } from '@docqa/plugin-api';

/**
 * The models chosen with `docqa models use`, one row per purpose, in the database so that every
 * replica loads the same ones (each polls the table). No row: the model of the configuration
 * (LLM_MODEL_PATH, EMBEDDING_MODEL_PATH) or none. The file is named relative to MODELS_DIR, which
 * replicas mount wherever they like.
 */
export const modelMigrations: ModuleMigration[] = [
  {
    name: '0014_active_model',
    up: [
      `create table active_model (
        purpose text primary key check (purpose in ('chat', 'embedding')),
        name text not null,
        file text not null,
        updated_at timestamptz not null default now(),
        updated_by text null
      )`,
    ],
    down: ['drop table active_model'],
  },
];

export type ModelPurpose = 'chat' | 'embedding';

export interface ActiveModelRow {
  purpose: ModelPurpose;
  name: string;
  file: string;
  updated_at: Date;
  updated_by: string | null;
}

export async function readActiveModels(db: SqlExecutor): Promise<Map<ModelPurpose, ActiveModelRow>> {
  const { rows } = await db.query<ActiveModelRow>(
    'select purpose, name, file, updated_at, updated_by from active_model',
  );
  return new Map(rows.map((row) => [row.purpose, row]));
}

export async function writeActiveModel(
  db: SqlExecutor,
  purpose: ModelPurpose,
  model: { name: string; file: string } | null,
  actor: string | null,
): Promise<void> {
  if (model === null) {
    await db.query('delete from active_model where purpose = $1', [purpose]);
    return;
  }
  await db.query(
    `insert into active_model (purpose, name, file, updated_by) values ($1, $2, $3, $4)
     on conflict (purpose) do update set name = excluded.name, file = excluded.file, updated_by = excluded.updated_by,
       updated_at = now()`,
    [purpose, model.name, model.file, actor],
  );
}
