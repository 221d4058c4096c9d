import { authorizedFetch, errorFrom, request } from './http';
import type {
  ApiKey,
  AuditEntry,
  BulkDeleteResult,
  Branding,
  Conversation,
  ConversationSummary,
  DocumentContent,
  DocumentRecord,
  FeedbackRating,
  FeedbackReport,
  Group,
  IndexStats,
  Job,
  KeyScope,
  License,
  MfaChallenge,
  ModelPurpose,
  ModelUse,
  Models,
  OidcProvider,
  OidcProviderInput,
  Page,
  ResourceAccess,
  ResourceType,
  Role,
  Rule,
  RuleInput,
  RuleTestResult,
  RuntimeSettings,
  Schedule,
  Source,
  SourceInput,
  SourceKind,
  TokenPair,
  TurnFeedback,
  User,
} from './types';

// One function per endpoint the UI uses; every path is in the OpenAPI document at /docs/openapi.json.
const id = encodeURIComponent;
type Paging = { limit?: number; offset?: number };

/** The size of a page in every list the UI pages through (the Pager component). */
export const pageSize = 25;

export const api = {
  auth: {
    login: (username: string, password: string) =>
      request<TokenPair | MfaChallenge>('/api/auth/login', { method: 'POST', body: { username, password } }),
    verifyMfa: (mfaToken: string, code: string) =>
      request<TokenPair>('/api/auth/mfa/verify', { method: 'POST', body: { mfa_token: mfaToken, code } }),
    oidcProviders: () => request<{ items: Array<{ name: string; display_name: string }> }>('/api/auth/oidc/providers'),
    forgotPassword: (email: string) =>
      request<{ detail: string }>('/api/auth/forgot-password', { method: 'POST', body: { email } }),
    resetPassword: (token: string, newPassword: string) =>
      request<{ detail: string }>('/api/auth/reset-password', {
        method: 'POST',
        body: { token, new_password: newPassword },
      }),
    me: () => request<User>('/api/auth/me'),
    setEmail: (email: string | null) => request<User>('/api/auth/me/email', { method: 'PUT', body: { email } }),
    changePassword: (current: string, next: string) =>
      request<TokenPair>('/api/auth/password', {
        method: 'PUT',
        body: { current_password: current, new_password: next },
      }),
    logoutAll: () => request<void>('/api/auth/logout-all', { method: 'POST' }),
    totpSetup: () => request<{ secret: string; otpauth_uri: string }>('/api/auth/mfa/totp/setup', { method: 'POST' }),
    totpEnable: (code: string) =>
      request<{ recovery_codes: string[] }>('/api/auth/mfa/totp/enable', { method: 'POST', body: { code } }),
    totpDisable: (body: { code?: string; password?: string }) =>
      request<void>('/api/auth/mfa/totp/disable', { method: 'POST', body }),
    apiKeys: () => request<{ items: ApiKey[] }>('/api/auth/api-keys'),
    createApiKey: (body: { name: string; scopes: KeyScope[]; expires_in_days: number | null }) =>
      request<ApiKey & { key: string }>('/api/auth/api-keys', { method: 'POST', body }),
    revokeApiKey: (keyId: string) => request<void>(`/api/auth/api-keys/${id(keyId)}`, { method: 'DELETE' }),
    updateSettings: (body: { access_token_expire_seconds?: number; refresh_token_expire_seconds?: number }) =>
      request<{ access_token_expire_seconds: number; refresh_token_expire_seconds: number }>(
        '/api/admin/auth/settings',
        { method: 'PATCH', body },
      ),
  },
  users: {
    list: (page: Paging = {}) => request<Page<User>>('/api/auth/users', { query: { limit: pageSize, ...page } }),
    create: (body: { username: string; password: string; role: Role; email: string | null }) =>
      request<User>('/api/auth/users', { method: 'POST', body }),
    update: (userId: string, body: { password?: string; role?: Role; email?: string | null }) =>
      request<User>(`/api/auth/users/${id(userId)}`, { method: 'PUT', body }),
    remove: (userId: string) => request<void>(`/api/auth/users/${id(userId)}`, { method: 'DELETE' }),
    apiKeys: (userId: string) => request<{ items: ApiKey[] }>(`/api/auth/users/${id(userId)}/api-keys`),
    revokeApiKey: (userId: string, keyId: string) =>
      request<void>(`/api/auth/users/${id(userId)}/api-keys/${id(keyId)}`, { method: 'DELETE' }),
  },
  groups: {
    list: (page: Paging = {}) => request<Page<Group>>('/api/groups', { query: { limit: pageSize, ...page } }),
    get: (groupId: string) => request<Group>(`/api/groups/${id(groupId)}`),
    create: (body: { name: string; description: string }) => request<Group>('/api/groups', { method: 'POST', body }),
    remove: (groupId: string) => request<void>(`/api/groups/${id(groupId)}`, { method: 'DELETE' }),
    addMember: (groupId: string, userId: string) =>
      request<void>(`/api/groups/${id(groupId)}/members/${id(userId)}`, { method: 'PUT' }),
    removeMember: (groupId: string, userId: string) =>
      request<void>(`/api/groups/${id(groupId)}/members/${id(userId)}`, { method: 'DELETE' }),
  },
  oidc: {
    list: () => request<Page<OidcProvider>>('/api/admin/oidc/providers', { query: { limit: 500 } }),
    create: (body: OidcProviderInput) => request<OidcProvider>('/api/admin/oidc/providers', { method: 'POST', body }),
    update: (providerId: string, body: OidcProviderInput) =>
      request<OidcProvider>(`/api/admin/oidc/providers/${id(providerId)}`, { method: 'PUT', body }),
    remove: (providerId: string) => request<void>(`/api/admin/oidc/providers/${id(providerId)}`, { method: 'DELETE' }),
  },
  docs: {
    list: (query: { q?: string; status?: string } & Paging) => request<Page<DocumentRecord>>('/api/docs', { query }),
    remove: (documentId: string) => request<void>(`/api/docs/${id(documentId)}`, { method: 'DELETE' }),
    removeMany: (ids: string[]) => request<BulkDeleteResult>('/api/docs/bulk', { method: 'DELETE', body: { ids } }),
    move: (documentId: string, targetPath: string) =>
      request<DocumentRecord>('/api/docs/move', {
        method: 'POST',
        body: { document_id: documentId, target_path: targetPath },
      }),
    stats: () => request<IndexStats>('/api/index/stats'),
    rebuild: () => request<{ job_id: string }>('/api/index/rebuild', { method: 'POST' }),
  },
  sources: {
    list: (kind: SourceKind) => request<Page<Source>>(`/api/${kind}`, { query: { limit: 500 } }),
    create: (kind: SourceKind, body: SourceInput) => request<Source>(`/api/${kind}`, { method: 'POST', body }),
    update: (kind: SourceKind, sourceId: string, body: SourceInput) =>
      request<Source>(`/api/${kind}/${id(sourceId)}`, { method: 'PUT', body }),
    remove: (kind: SourceKind, sourceId: string) => request<void>(`/api/${kind}/${id(sourceId)}`, { method: 'DELETE' }),
    sync: (kind: SourceKind, sourceId: string) =>
      request<{ job_id: string }>(`/api/${kind}/${id(sourceId)}/${kind === 'connectors' ? 'scan' : 'sync'}`, {
        method: 'POST',
      }),
    syncAll: () => request<{ job_ids: string[] }>('/api/connectors/sync-all', { method: 'POST' }),
  },
  jobs: {
    list: (query: { status?: string; kind?: string; source_id?: string } & Paging = {}) =>
      request<Page<Job>>('/api/jobs', { query: { limit: pageSize, ...query } }),
    get: (jobId: string) => request<Job>(`/api/jobs/${id(jobId)}`),
    cancel: (jobId: string) => request<Job>(`/api/jobs/${id(jobId)}/cancel`, { method: 'POST' }),
  },
  rules: {
    // A source holds few rules; the largest page at once keeps the rules screen whole.
    list: (sourceId: string) =>
      request<{ items: Rule[]; total: number }>(`/api/metadata/${id(sourceId)}/rules?limit=500`),
    create: (sourceId: string, body: RuleInput) =>
      request<Rule>(`/api/metadata/${id(sourceId)}/rules`, { method: 'POST', body }),
    update: (sourceId: string, ruleId: string, body: RuleInput) =>
      request<Rule>(`/api/metadata/${id(sourceId)}/rules/${id(ruleId)}`, { method: 'PUT', body }),
    remove: (sourceId: string, ruleId: string) =>
      request<void>(`/api/metadata/${id(sourceId)}/rules/${id(ruleId)}`, { method: 'DELETE' }),
    test: (sourceId: string, rule: RuleInput, sampleText: string, filename: string | undefined, signal?: AbortSignal) =>
      request<RuleTestResult>(`/api/metadata/${id(sourceId)}/test-rule`, {
        method: 'POST',
        body: { rule, sample_text: sampleText, ...(filename ? { filename } : {}) },
        signal,
      }),
    refresh: (sourceId: string) =>
      request<{ job_id: string }>(`/api/metadata/${id(sourceId)}/refresh`, { method: 'POST' }),
  },
  access: {
    get: (type: ResourceType, resourceId: string) => request<ResourceAccess>(`/api/access/${type}/${id(resourceId)}`),
    set: (type: ResourceType, resourceId: string, groupIds: string[]) =>
      request<ResourceAccess>(`/api/access/${type}/${id(resourceId)}`, {
        method: 'PUT',
        body: { group_ids: groupIds },
      }),
  },
  models: {
    list: () => request<Models>('/api/models'),
    pull: (name: string) =>
      request<{ job_id: string; name: string }>('/api/models/pull', { method: 'POST', body: { name } }),
    use: (body: { name: string | null; purpose?: ModelPurpose; reembed?: boolean }) =>
      request<ModelUse>('/api/models/use', { method: 'POST', body }),
  },
  schedules: {
    list: (page: Paging = {}) => request<Page<Schedule>>('/api/schedules', { query: { limit: pageSize, ...page } }),
    create: (body: { source_type: 'connector' | 'integration'; source_id: string; cron: string; enabled: boolean }) =>
      request<Schedule>('/api/schedules', { method: 'POST', body }),
    update: (scheduleId: string, body: { cron?: string; enabled?: boolean }) =>
      request<Schedule>(`/api/schedules/${id(scheduleId)}`, { method: 'PUT', body }),
    remove: (scheduleId: string) => request<void>(`/api/schedules/${id(scheduleId)}`, { method: 'DELETE' }),
  },
  conversations: {
    list: (page: Paging = {}) =>
      request<Page<ConversationSummary>>('/api/conversations', { query: { limit: pageSize, ...page } }),
    get: (conversationId: string) => request<Conversation>(`/api/conversations/${id(conversationId)}`),
    remove: (conversationId: string) => request<void>(`/api/conversations/${id(conversationId)}`, { method: 'DELETE' }),
    /** Rates the turn at `index` (0-based, as `get` lists them); a null rating clears it. */
    setFeedback: (conversationId: string, index: number, body: { rating: FeedbackRating | null; comment?: string }) =>
      request<{ feedback: TurnFeedback | null }>(`/api/conversations/${id(conversationId)}/turns/${index}/feedback`, {
        method: 'PUT',
        body,
      }),
  },
  /** What the viewer shows: the extracted text around a passage, and the original file (a PDF) as a blob. */
  documentView: {
    content: (documentId: string, offset: number, limit: number) =>
      request<DocumentContent>(`/api/docs/${id(documentId)}/content`, { query: { offset, limit } }),
    file: async (documentId: string, signal?: AbortSignal): Promise<Blob> => {
      const res = await authorizedFetch(`/api/docs/${id(documentId)}/file`, { signal });
      if (!res.ok) throw await errorFrom(res);
      return res.blob();
    },
  },
  feedbackReport: (query: { period: 'day' | 'week' | 'month'; days: number; limit: number }) =>
    request<FeedbackReport>('/api/analytics/feedback', { query }),
  /** Spec 4.7; the shapes are rendered defensively, whatever JSON each endpoint answers. */
  analytics: (sourceId: string, report: string) => request<unknown>(`/api/analytics/${id(sourceId)}/${report}`),
  audit: {
    list: (query: { type?: string; user?: string; outcome?: string; from?: string; to?: string } & Paging) =>
      request<Page<AuditEntry>>('/api/audit', { query }),
    verify: () =>
      request<{ valid: boolean; checked: number; broken_at: { id: string; seq: number; reason: string } | null }>(
        '/api/audit/verify',
      ),
    config: () => request<{ retention_days: number }>('/api/audit/config'),
    setConfig: (retentionDays: number) =>
      request<{ retention_days: number }>('/api/audit/config', {
        method: 'PUT',
        body: { retention_days: retentionDays },
      }),
  },
  branding: {
    get: () => request<Branding>('/api/branding'),
    update: (body: Partial<Pick<Branding, 'name' | 'colors' | 'texts'>>) =>
      request<Branding>('/api/branding', { method: 'PUT', body }),
    uploadLogo: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return request<{ logo_url: string }>('/api/branding/logo', { method: 'POST', body: form });
    },
  },
  license: {
    get: () => request<License>('/api/license'),
    apply: (licenseKey: string) =>
      request<License>('/api/license', { method: 'POST', body: { license_key: licenseKey } }),
  },
  settings: {
    get: () => request<RuntimeSettings>('/api/admin/settings'),
    update: (changes: Record<string, string | number | boolean>) =>
      request<RuntimeSettings>('/api/admin/settings', { method: 'PATCH', body: changes }),
  },
  system: {
    version: () => request<{ version: string; commit: string; build_date: string }>('/api/version'),
    modelInfo: () => request<Record<string, unknown>>('/api/model-info'),
    hardware: () => request<Record<string, unknown>>('/api/hardware'),
  },
};
