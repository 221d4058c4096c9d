// The caller, the one type every domain area shares: who asks, as the HTTP layer, the CLI or a job
// established it.

export type Role = 'admin' | 'editor' | 'viewer';

/** The caller of a domain operation: a signed-in user, acting with the role they hold now. */
export interface Principal {
  userId: string;
  username: string;
  role: Role;
}
