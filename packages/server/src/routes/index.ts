import type { AnyRoute } from '../http/route.js';
import { authRoutes } from './auth.js';
import { documentRoutes } from './documents.js';
import { indexRoutes } from './index-admin.js';
import { jobRoutes } from './jobs.js';
import { ruleRoutes } from './rules.js';
import { scheduleRoutes } from './schedules.js';
import { connectorRoutes, integrationRoutes } from './sources.js';
import { groupRoutes } from './groups.js';
import { mfaRoutes } from './mfa.js';
import { oidcRoutes } from './oidc.js';
import { settingsRoutes } from './settings.js';
import { searchRoutes } from './search.js';
import { userRoutes } from './users.js';
import { apiKeyRoutes } from './api-keys.js';
import { openAiRoutes } from './openai.js';
import { mcpRoutes } from './mcp.js';
import { systemRoutes } from './system.js';
import { chatRoutes } from './chat.js';
import { conversationRoutes } from './conversations.js';
import { modelRoutes } from './models.js';
import { auditRoutes } from './audit.js';
import { brandingRoutes } from './branding.js';
import { analyticsRoutes, feedbackReportRoute } from './analytics.js';
import { licenseRoutes } from './license.js';
import { modelAdminRoutes } from './model-admin.js';
import { metricsRoutes } from './metrics.js';

/** The route table: every endpoint DocQA serves, with its access level and plan gate. */
export const routes: readonly AnyRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...mfaRoutes,
  ...oidcRoutes,
  ...userRoutes,
  ...apiKeyRoutes,
  ...groupRoutes,
  ...documentRoutes,
  ...indexRoutes,
  ...connectorRoutes,
  ...integrationRoutes,
  ...jobRoutes,
  ...ruleRoutes,
  ...analyticsRoutes,
  feedbackReportRoute,
  ...scheduleRoutes,
  ...searchRoutes,
  ...chatRoutes,
  ...openAiRoutes,
  ...mcpRoutes,
  ...conversationRoutes,
  ...modelRoutes,
  ...modelAdminRoutes,
  ...auditRoutes,
  ...brandingRoutes,
  ...licenseRoutes,
  ...settingsRoutes,
  ...metricsRoutes,
];
