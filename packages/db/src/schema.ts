import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps come back as Date from pg; written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type UserRole = 'admin' | 'church';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  passwordHash: string;
  churchName: string;
  email: string;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  createdAt: Generated<Date>;
}

export interface SessionsTable {
  sid: string;
  sess: ColumnType<Record<string, unknown>, string, string>;
  expiresAt: Timestamp;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  username: string;
  ip: string;
  at: Generated<Date>;
}

export interface ImpersonationAuditTable {
  id: Generated<number>;
  adminId: number;
  targetId: number;
  action: 'start' | 'stop';
  at: Generated<Date>;
}

export interface AppSettingsTable {
  key: string;
  value: string;
  createdAt: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  appSettings: AppSettingsTable;
  sessions: SessionsTable;
  loginFailures: LoginFailuresTable;
  impersonationAudit: ImpersonationAuditTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

/**
 * The columns of every table, checked against `Database` by the compiler (every key present,
 * none extra) and against the migrated database by `schema.test.ts`.
 */
type Columns = { [T in keyof Database]: { [C in keyof Database[T]]-?: true } };
export const schemaColumns: Columns = {
  users: { id: true, username: true, passwordHash: true, churchName: true, email: true, role: true, createdAt: true },
  appSettings: { key: true, value: true, createdAt: true },
  sessions: { sid: true, sess: true, expiresAt: true },
  loginFailures: { id: true, username: true, ip: true, at: true },
  impersonationAudit: { id: true, adminId: true, targetId: true, action: true, at: true },
};
