// Generated from DocQA's OpenAPI document by openapi-typescript: do not edit.
// `npm run generate -w @docqa/client` (part of `npm run build`) writes it again; openapi.test.ts
// fails when it no longer matches the document the server's code builds.
/* eslint-disable */
export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health status with the running version
         * @description Answers 200 when the database answers (status ok, or degraded when jobs, the vector store or a read replica are not), 503 when the database is down.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The running application version */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with user name and password
         * @description Answers the token pair, or `{mfa_required, mfa_token}` when the account has TOTP enabled (then call /api/auth/mfa/verify).
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for a new token pair
         * @description The refresh token is rotated: each works once. Using one twice ends that sign-in (every token of its family).
         */
        post: operations["refreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out everywhere: every token of this account stops working */
        post: operations["logoutEverywhere"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password reset email
         * @description Always answers 200 with the same body, whether or not the address belongs to an account. Rate limited (RATE_LIMIT_RESET, RATE_LIMIT_RESET_BURST).
         */
        post: operations["forgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a single-use reset token
         * @description The token comes from the reset email and works once, for 30 minutes. Every session of the account ends. Rate limited like forgot-password.
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or change the signed-in user's email */
        put: operations["setOwnEmail"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the signed-in user's password
         * @description Needs the current password. Every older token of the account stops working; the answer is a new pair for this client.
         */
        put: operations["changePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/auth/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change token lifetimes without a restart */
        patch: operations["updateAuthSettings"];
        trace?: never;
    };
    "/api/auth/mfa/totp/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start TOTP enrolment: a new secret and its otpauth URI
         * @description Show the URI as a QR code; TOTP is active only after /enable with a first code.
         */
        post: operations["setupTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/mfa/totp/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn TOTP on with a first code; answers the recovery codes once */
        post: operations["enableTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/mfa/totp/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn TOTP off with a current code or the password */
        post: operations["disableTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/mfa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Second sign-in step: the mfa_token of /login and a TOTP or recovery code */
        post: operations["verifyTotpLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Single sign-on providers to offer on the sign-in page
         * @description The enabled providers: the stored ones, or while none is stored, those of the OIDC_* variables.
         */
        get: operations["listOidcSignInProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/{name}/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start single sign-on: a redirect to the identity provider
         * @description Redirects (302) to the IdP with PKCE (S256), state and nonce; the sign-in must finish at the callback within 10 minutes. `return_to` is a web UI path the callback sends the browser back to.
         */
        get: operations["startOidcSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/{name}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finish single sign-on: the IdP redirects here
         * @description Checks the state (single use, 10 minutes), exchanges the code with the PKCE verifier and verifies the ID token and its nonce. A client whose Accept prefers application/json gets the token pair as JSON (200). A browser gets a 302 to `PUBLIC_URL` + the login's `return_to` (default `/`) with `#access_token=…&refresh_token=…&token_type=bearer`: the web UI reads the tokens from the fragment, which browsers never send to a server or put in a Referer. Refusals by the IdP, a replayed or unknown state and failed exchanges answer 401.
         */
        get: operations["finishOidcSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/oidc/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List stored OIDC providers
         * @description Client secrets are write-only: `"***"` when set, null when not. Providers from OIDC_* variables are not listed here.
         */
        get: operations["listOidcProviders"];
        put?: never;
        /**
         * Add an OIDC provider
         * @description Once any provider is stored, the OIDC_* variables are no longer used. `redirect_uri` defaults to PUBLIC_URL + /api/auth/oidc/{name}/callback. A duplicate name answers 409.
         */
        post: operations["createOidcProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/oidc/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stored OIDC provider */
        get: operations["getOidcProvider"];
        /**
         * Change an OIDC provider
         * @description Send the fields to change. `client_secret`: a string replaces it, null removes it, leaving it out keeps it. The name cannot change: users are linked to it.
         */
        put: operations["updateOidcProvider"];
        post?: never;
        /**
         * Remove an OIDC provider
         * @description Its users keep their accounts but cannot sign in through it until a provider of the same name exists again.
         */
        delete: operations["deleteOidcProvider"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description Without a role the user is a viewer. With AUTH_REQUIRE_EMAIL an email is required.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user */
        get: operations["getUser"];
        /**
         * Change a user's password, role or email
         * @description The last admin cannot be demoted. A new password or role ends the user's sessions.
         */
        put: operations["updateUser"];
        post?: never;
        /**
         * Delete a user
         * @description The last admin cannot be deleted.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's API keys (not revoked), without their secrets */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create a personal API key
         * @description The answer holds the key, once; only its SHA-256 is stored. Send it as `Authorization: Bearer <key>`. It acts as its user, within its scopes and the user's role at each request.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of the caller's API keys
         * @description The key is refused from the next request on.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/users/{id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's API keys (admin) */
        get: operations["listUserApiKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/users/{id}/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a user's API key (admin) */
        delete: operations["revokeUserApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups
         * @description On FREE and PRO only the built-in everyone group exists (spec 8.1).
         */
        get: operations["listGroups"];
        put?: never;
        /** Create a group */
        post: operations["createGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One group with its members */
        get: operations["getGroup"];
        /** Rename or describe a group */
        put: operations["updateGroup"];
        post?: never;
        /** Delete a group (its access grants go with it) */
        delete: operations["deleteGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/{id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Add a user to a group */
        put: operations["addGroupMember"];
        post?: never;
        /** Remove a user from a group */
        delete: operations["removeGroupMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The groups of the signed-in user */
        get: operations["listOwnGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/access/{resource_type}/{resource_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The groups that may see a connector, integration or document */
        get: operations["getResourceAccess"];
        /**
         * Set the groups that may see a resource (empty: everyone)
         * @description Documents without grants of their own follow their connector or integration. Admins see everything.
         */
        put: operations["setResourceAccess"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload documents for indexing
         * @description multipart/form-data with one or more parts named `file` (at most 20), streamed to storage. Type, plan gate and plan limits (documents, file size, storage) are checked before and while bytes arrive; a refused upload stores nothing. The same bytes uploaded again answer the existing document with `duplicate: true`.
         *
         *     With `connector_id` (query or form field), each file is written into that connector's storage at `<directory>/<file name>` and becomes the connector's document, as a scan would record it, so the next scan changes nothing; `duplicate` is then false (a connector may hold the same bytes at two paths). An existing file or document at that path answers 409, a path the connector refuses (through a link, out of its directory, excluded by its globs) 422, an integration or a connector that cannot store files 422, an unknown connector 404; nothing is written.
         */
        post: operations["uploadDocuments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List documents the caller may see */
        get: operations["listDocuments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One document: its status, error, chunks, metadata and where it comes from
         * @description A document outside the caller's groups answers 404, as one that does not exist.
         */
        get: operations["getDocument"];
        put?: never;
        post?: never;
        /**
         * Delete a document, its chunks and vectors
         * @description With `connector_id` (the document's connector, which must be able to store files), the document's file is deleted from the connector's storage as well. A document of another source answers 422, an unknown connector 404.
         */
        delete: operations["deleteDocument"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete several documents */
        delete: operations["deleteDocuments"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a document to another path of its source
         * @description A connector's document moves within the connector's storage: its file is renamed to `target_path` (relative to the connector's directory) and the document keeps its id, chunks and vectors, so nothing is indexed again and the next scan changes nothing. An upload moved with `connector_id` has its bytes written into that connector at `target_path` and becomes the connector's document, keeping its chunks. An existing file or document at the target answers 409; a path the connector refuses (through a link, out of its directory, excluded by its globs), a connector that cannot store files, or a document of another connector or of an integration 422. Other documents only change their path.
         */
        post: operations["moveDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a document's extracted text, with its section map and pages
         * @description The text indexing extracted, `limit` characters from `offset`; a source's `location.char_start`/`char_end` index this text. `sections` and `pages` cover the whole document whatever the page asked. A document outside the caller's groups answers 404, as one that does not exist.
         */
        get: operations["getDocumentContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The original file of a document
         * @description The bytes as uploaded or synced, with the document's media type, as an attachment (or inline for a PDF when asked). `Content-Security-Policy: sandbox` and `nosniff` keep stored HTML or SVG from running on this origin. ETag is the SHA-256 of the bytes; If-None-Match answers 304. A document outside the caller's groups answers 404, as one that does not exist.
         */
        get: operations["getDocumentFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/index/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the index holds */
        get: operations["getIndexStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/index/rebuild": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-index every document as a cancellable job
         * @description Documents are re-indexed one by one; each keeps answering from its old chunks until its new ones are committed. While a rebuild is queued, another request answers 409.
         */
        post: operations["rebuildIndex"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/sync-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sync every enabled connector and integration */
        post: operations["syncAllSources"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List connectors */
        get: operations["listConnectors"];
        put?: never;
        /**
         * Create a connector
         * @description The config is validated by the plugin of `type` (and opened once, so paths and credentials are checked).
         */
        post: operations["createConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One connector */
        get: operations["getConnector"];
        /** Update a connector */
        put: operations["updateConnector"];
        post?: never;
        /** Delete a connector and its documents */
        delete: operations["deleteConnector"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{id}/scan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a scan of a connector */
        post: operations["scanConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List integrations */
        get: operations["listIntegrations"];
        put?: never;
        /**
         * Create a integration
         * @description The config is validated by the plugin of `type` (and opened once, so paths and credentials are checked).
         */
        post: operations["createIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One integration */
        get: operations["getIntegration"];
        /** Update a integration */
        put: operations["updateIntegration"];
        post?: never;
        /** Delete a integration and its documents */
        delete: operations["deleteIntegration"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a sync of a integration */
        post: operations["syncIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Background jobs, newest first
         * @description Queued and running jobs, and finished ones (succeeded, failed, cancelled) for JOB_STATE_TTL_SECONDS after they ended (default one day). Older finished jobs are left out of this list but kept as history: GET /api/jobs/{id} answers them until the daily retention sweep deletes them after JOB_HISTORY_RETENTION_DAYS.
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One job with its progress and ETA
         * @description Queued and running jobs, and finished ones for JOB_STATE_TTL_SECONDS after they ended, as the list shows them; later a finished job answers 404.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a queued or running job
         * @description The job ends `cancelled`; running work is stopped through its abort signal on whichever replica runs it, and the jobs it started (a sync's indexing of the documents it found) are cancelled too. A finished job answers 409.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metadata/{source_id}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rules of a source, highest priority first */
        get: operations["listMetadataRules"];
        put?: never;
        /**
         * Create a rule
         * @description `pattern` (and `query_pattern`) use Python regular expression syntax and must hold exactly one capture group; a bad one answers 422 naming the field.
         */
        post: operations["createMetadataRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metadata/{source_id}/rules/{rule_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace a rule */
        put: operations["updateMetadataRule"];
        post?: never;
        /** Delete a rule */
        delete: operations["deleteMetadataRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metadata/{source_id}/test-rule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Try a rule on sample text without saving it */
        post: operations["testMetadataRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metadata/{source_id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-apply the rules to indexed chunks as a job */
        post: operations["refreshMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/chunk-size-distribution": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Histogram of chunk lengths with summary statistics
         * @description Character lengths of the chunks of the source's indexed documents: count, min, max, mean, median and 90th percentile, a histogram with fixed edges, and how many chunks are shorter than RAG_MIN_CHUNK_LENGTH.
         */
        get: operations["chunkSizeDistribution"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/metadata-hit-rate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Per-rule match rate across documents and chunks
         * @description For every rule, in evaluation order: documents where it matched, ran without a match, was shadowed by a rule earlier in priority order, or failed; chunks with its value by their own match or by inheritance; and the rates. Outcomes are recorded at indexing and by a metadata refresh; `not_applied` and `stale` say when a refresh is due.
         */
        get: operations["metadataHitRate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/metadata-coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Per-field metadata coverage ratio
         * @description For every field a rule of the source produces (even one that never matched), and every other field on its documents: documents and chunks with a value, and their share of the source. Rule fields are counted from the recorded rule outcomes.
         */
        get: operations["metadataCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/chunks-per-document": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Chunks per document with summary statistics
         * @description Summary statistics and a histogram of the chunk count of the source's indexed documents, and the ten largest documents.
         */
        get: operations["chunksPerDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/inheritance-ratio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Self-matched vs inherited vs empty chunks for chunk-level rules
         * @description For every field with a chunk-level rule: chunks whose value comes from a match inside them, chunks that inherited it from an earlier chunk, chunks with a document-level value of the field, and chunks without it; per rule too.
         */
        get: operations["inheritanceRatio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/empty-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Chunks with no metadata, and sample documents
         * @description Chunks that no rule gave any value, the documents they belong to, and up to ten of those documents, most empty chunks first.
         */
        get: operations["emptyMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/{source_id}/rule-priority-audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Winner counts of rules competing for a field
         * @description For every field with two or more rules: the rules in evaluation order (priority, then id) with the documents each supplied the field for, ran without a match, or never ran because an earlier rule had won; and whether priorities tie.
         */
        get: operations["rulePriorityAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Thumbs up and down on chat answers per period, and the latest down-rated answers
         * @description Counts of up and down ratings per day, week or month over the last `days` days (a turn counts once, in the period it was last rated), and the latest down-rated turns with their question, the start of the answer, the sources and the comment. Ratings are set with PUT /api/conversations/{id}/turns/{index}/feedback.
         */
        get: operations["feedbackReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sync schedules */
        get: operations["listSchedules"];
        put?: never;
        /** Schedule a source's sync */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One schedule */
        get: operations["getSchedule"];
        /** Change the cron expression or enable/disable */
        put: operations["updateSchedule"];
        post?: never;
        /** Delete a schedule */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retrieve the chunks that best match a query
         * @description BM25 over an analyzer for each chunk's language, fused by reciprocal rank with embedding search when an embedder is configured. Only chunks of indexed documents the caller may see are searched.
         */
        post: operations["search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a question from the documents
         * @description Answers as JSON by default. With `Accept: text/event-stream` the answer streams as server-sent events: `delta` {text} pieces, then one `done` with the metadata of the JSON answer (without `answer`), or one `error` {detail} if the pipeline fails after the stream started; the stream then closes. A client that disconnects stops generation, and nothing is saved. The turn is saved to the conversation once the answer is complete. Another user's conversation_id answers 404 before any stream starts; an id no conversation has starts a new conversation with it.
         */
        post: operations["chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openai/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The models an OpenAI client can pick
         * @description `docqa` answers from every document the caller may read.
         */
        get: operations["openAiListModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openai/v1/models/{model}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One model */
        get: operations["openAiGetModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openai/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer the last user message from the documents, as OpenAI's chat completions
         * @description Runs DocQA's chat pipeline (classification, retrieval with the caller's access, token budget, the configured model or extractive answers) on the last user message; earlier user and assistant messages serve follow-up rewriting and the prompt. Nothing is saved as a conversation. With `stream: true`, `chat.completion.chunk` events end with `data: [DONE]`; the last chunk with a choice carries `docqa_sources`, and `stream_options.include_usage` adds a chunk with `usage`. Errors have OpenAI's shape `{error: {message, type, param, code}}`.
         */
        post: operations["openAiChatCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The Model Context Protocol server (Streamable HTTP, stateless)
         * @description MCP over Streamable HTTP in stateless mode: each POST carries one JSON-RPC message and is answered in its response (send `Accept: application/json, text/event-stream`): JSON, except a call of `ask`, answered as an event stream with keep-alive comments. There is no session and no GET stream, so any replica answers any request. Tools: `search`, `ask`, `list_documents`, `get_document`; resources `docqa://documents/{id}`. Every request is authenticated (an API key with the read scope, or an access token); each tool also needs what its REST endpoint needs, and sees only the caller's documents. A tool that fails answers a tool result with `isError` and the reason. See docs/api-access.md.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's conversations, most recently active first
         * @description Only the caller's own. Conversations without activity for RAG_CONVERSATION_MAX_AGE_DAYS are purged by the daily retention sweep.
         */
        get: operations["listConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of the caller's conversations with its turns, oldest first
         * @description At most RAG_CONVERSATION_MAX_TURNS turns are kept. Another user's conversation answers 404, as an unknown one does.
         */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        /** Delete one of the caller's conversations */
        delete: operations["deleteConversation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/turns/{index}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Rate one answer of the caller's conversation: thumbs up or down, with an optional comment
         * @description Stored with the turn (and gone with it when the conversation is trimmed or deleted); admins see the counts and the latest down-rated answers at GET /api/analytics/feedback. Audit event chat.feedback. Another user's conversation answers 404, as an unknown one does.
         */
        put: operations["setTurnFeedback"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The chat model in use, its context window, and the embedding model
         * @description Answers at once from what was loaded at start-up: a hosted backend is not called.
         */
        get: operations["getModelInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hardware": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** CPU, memory and GPU of the machine DocQA runs on */
        get: operations["getHardware"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Catalogue, installed models, the models in use, and whether the index matches them */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models/pull": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Download a catalogue model into MODELS_DIR as a cancellable job
         * @description The job (kind model_pull in GET /api/jobs) reports progress in KiB and an ETA; POST /api/jobs/{id}/cancel stops it and keeps the partial file, so pulling again resumes. The file is checked (size and SHA-256 when the catalogue has them, GGUF header) before it appears in MODELS_DIR. The job runs on a worker replica: share MODELS_DIR between replicas.
         */
        post: operations["pullModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/models/use": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Switch the chat or embedding model without a restart
         * @description Loads the installed model on this replica first (a model that cannot load changes nothing), stores the choice in the database, and answers; the other replicas load it within a few seconds. The purpose comes from the model. `name: null` with a `purpose` returns to the configured model (LLM_MODEL_PATH, EMBEDDING_MODEL_PATH). A new embedding model leaves the index stale (vectors of two models are never compared): `reembed: true` starts the rebuild job that re-embeds every document.
         */
        post: operations["useModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Query the append-only audit log, newest first
         * @description Entries are recorded while the plan is ENTERPRISE. Filters combine; `to` is exclusive.
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit retention policy */
        get: operations["getAuditConfig"];
        /**
         * Change the audit retention policy
         * @description Applies to every replica without a restart; recorded as config.update.
         */
        put: operations["updateAuditConfig"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check the hash chain of the whole log
         * @description Recomputes every entry's hash from the anchor on; `valid: false` names the first entry that was changed, or that follows a removed one.
         */
        get: operations["verifyAuditChain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One audit entry */
        get: operations["getAuditEntry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Name, colours, texts and logo address of this installation */
        get: operations["getBranding"];
        /**
         * Replace the branding
         * @description Fields left out take DocQA's defaults. Recorded as config.update.
         */
        put: operations["updateBranding"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/branding/logo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The logo image
         * @description PNG, JPEG or WebP as normalised at upload (SVG uploads are served as PNG). ETag and If-None-Match let browsers revalidate cheaply; 404 until a logo is uploaded.
         */
        get: operations["getBrandingLogo"];
        put?: never;
        /**
         * Upload the logo
         * @description multipart/form-data with a `file` field, or a raw image/* body; at most 2 MB. PNG, JPEG and WebP are re-encoded without metadata and scaled to 512 px at most; SVG must be self-contained (no entities, no outside references) and is rendered to PNG. A refused upload leaves the previous logo in place. Recorded as config.update.
         */
        post: operations["uploadBrandingLogo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/license": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The license, the plan in effect, and usage against its limits */
        get: operations["getLicense"];
        put?: never;
        /**
         * Apply or replace the license without a restart
         * @description The key is a compact JWS signed with Ed25519 (the contents of the license key file; surrounding whitespace is ignored). A key that does not verify, is malformed or has expired answers 422 and the previous license stays. Every attempt is audited as license.apply.
         */
        post: operations["applyLicense"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runtime settings and derived values */
        get: operations["getRuntimeSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change runtime settings without a restart
         * @description Validates every change first; one invalid value answers 422 listing each bad field and changes nothing. Other replicas apply the change within 5 seconds. Recorded as config.update.
         */
        patch: operations["updateRuntimeSettings"];
        trace?: never;
    };
    "/api/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics of this server process
         * @description Request rates and latencies, job queue depth and durations, ingestion throughput, LLM token rates and the process defaults, in the Prometheus text exposition format (docs/metrics.md lists them). Counters are per process: scrape every replica. For a scraper without a token, METRICS_PORT opens a separate unauthenticated listener.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @description A sentence a person can act on. */
            detail: string;
            /** @description Stable snake_case code, see docs/errors.md. */
            code: string;
            /** @description Field errors of a validation failure. */
            errors?: {
                field: string;
                message: string;
            }[];
            required_plan?: string;
            limit?: number;
            current?: number;
        };
        TokenPair: {
            access_token: string;
            refresh_token: string;
            /** @constant */
            token_type: "bearer";
        };
        User: {
            /** Format: uuid */
            id: string;
            username: string;
            email: string | null;
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
            mfa_enabled: boolean;
            sso_provider: string | null;
            created_at: string;
            updated_at: string;
        };
        OidcProvider: {
            /** Format: uuid */
            id: string;
            name: string;
            display_name: string;
            discovery_url: string;
            client_id: string;
            client_secret: "***" | null;
            redirect_uri: string;
            scopes: string;
            admin_groups: string[];
            groups_claim: string;
            enabled: boolean;
            created_at: string;
            updated_at: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            user_id: string;
            name: string;
            /** @description The start of the key, to recognise it; the rest is never shown again. */
            prefix: string;
            scopes: ("read" | "write" | "admin")[];
            created_at: string;
            expires_at: string | null;
            /** @description To the minute. */
            last_used_at: string | null;
        };
        Group: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            builtin: boolean;
            /** @description null for the built-in everyone group, which holds every user. */
            member_count: number | null;
            created_at: string;
            updated_at: string;
        };
        Document: {
            /** Format: uuid */
            id: string;
            filename: string;
            path: string;
            title: string | null;
            media_type: string;
            size_bytes: number;
            /** @description SHA-256 of the bytes. */
            content_hash: string;
            /** @enum {string} */
            status: "pending" | "indexing" | "indexed" | "failed";
            error: string | null;
            job_id: string | null;
            /** @enum {string} */
            source_type: "upload" | "connector" | "integration";
            source_id: string | null;
            chunk_count: number;
            metadata: {
                [key: string]: string;
            };
            created_at: string;
            updated_at: string;
            indexed_at: string | null;
        };
        DocumentContent: {
            /** Format: uuid */
            document_id: string;
            /** @description The document title, or its file name when it has none. */
            title: string;
            media_type: string;
            offset: number;
            limit: number;
            /** @description Length of the whole extracted text, in UTF-16 code units. */
            total_chars: number;
            /** @description The text from offset, at most limit characters. */
            text: string;
            /** @description Every section of the whole text, in order: a run of text under one heading path. */
            sections: {
                heading_path: string[];
                char_start: number;
                char_end: number;
                page_start: number | null;
                page_end: number | null;
                /** @description The worksheet (xlsx); null for other formats. */
                sheet: string | null;
            }[];
            /** @description Where each page with text is in the whole text (PDF, plain text with form feeds); empty for formats without pages. */
            pages: {
                page: number;
                char_start: number;
                char_end: number;
            }[];
        };
        IndexStats: {
            documents: {
                total: number;
                pending: number;
                indexing: number;
                indexed: number;
                failed: number;
            };
            chunks: number;
            /** @description Chunks with a vector of the current embedding model. */
            embedded_chunks: number;
            /** @description Every model whose vectors are stored; a switched model leaves its old space until a rebuild. */
            embedding_spaces: {
                model: string;
                dimensions: number;
                count: number;
            }[];
            index_size_bytes: number;
            last_update: string | null;
        };
        Source: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The plugin type: filesystem, web, s3, git, ... */
            type: string;
            /** @description The plugin's options; secret ones answer "***" (send "***" back to keep them). */
            config: {
                [key: string]: unknown;
            };
            enabled: boolean;
            last_sync_at: string | null;
            last_sync_status: string | null;
            last_error: string | null;
            document_count: number;
            created_at: string;
            updated_at: string;
        };
        Job: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "scan" | "sync" | "sync_all" | "rebuild" | "metadata_refresh" | "ingest" | "retention_sweep" | "model_pull" | "lexical_reindex";
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            source_type: ("connector" | "integration") | null;
            source_id: string | null;
            progress: {
                done: number;
                total: number | null;
            };
            /** @description Estimated from the progress so far; null until there is some. */
            eta_seconds: number | null;
            error: string | null;
            result: unknown | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
        };
        Rule: {
            /** Format: uuid */
            id: string;
            field_name: string;
            pattern: string;
            query_pattern: string | null;
            /** @enum {string} */
            scope: "full" | "header" | "filename";
            /** @enum {string} */
            level: "document" | "chunk";
            chunk_boundary: boolean;
            priority: number;
            /** Format: uuid */
            source_id: string;
            /** @enum {string} */
            source_type: "connector" | "integration";
            created_at: string;
            updated_at: string;
        };
        Schedule: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            source_type: "connector" | "integration";
            /** Format: uuid */
            source_id: string;
            /** @description Five-field cron expression; the clock is UTC. */
            cron: string;
            enabled: boolean;
            last_run: string | null;
            next_run: string | null;
            created_at: string;
            updated_at: string;
        };
        /** @description Where the passage comes from in its document. */
        SourceLocation: {
            /** @description First 1-based page (PDF; plain text split by form feeds); null for formats without pages. */
            page_start: number | null;
            /** @description Last 1-based page, as page_start. */
            page_end: number | null;
            /** @description Headings the passage sits under, outermost first (Markdown, DOCX, HTML; the sheet name for xlsx). */
            heading_path: string[];
            /** @description The worksheet of an xlsx workbook; null for other formats. */
            sheet: string | null;
            /** @description First 1-based sheet row (xlsx) or record (CSV: non-empty records, the header is 1); null for other formats. */
            row_start: number | null;
            /** @description Last row, as row_start. */
            row_end: number | null;
            /** @description Offset of the passage in the extracted text of GET /api/docs/{id}/content, in UTF-16 code units: text.slice(char_start, char_end) is the passage. */
            char_start: number;
            /** @description End (exclusive) of the passage in the extracted text. */
            char_end: number;
        };
        ChatAnswer: {
            /** Format: uuid */
            conversation_id: string;
            sources: components["schemas"]["ChatSource"][];
            /** @description null when the prompt fit without trimming. */
            token_budget: {
                limit: number;
                estimated_prompt: number;
                reserved_completion: number;
                chunks_dropped: number;
                /** @description Earlier turns left out of the prompt after every droppable chunk. */
                history_turns_dropped: number;
            } | null;
            retrieval_settings: {
                /** @enum {string} */
                mode: "lexical" | "dense" | "hybrid";
                top_k: number;
                /** @description The filters retrieval used: the request's and the classifier's. */
                filters: {
                    document_ids?: string[];
                    /** @enum {string} */
                    source_type?: "upload" | "connector" | "integration";
                    /** Format: uuid */
                    source_id?: string;
                    metadata?: {
                        [key: string]: string;
                    };
                };
                rewritten_query: string | null;
                /**
                 * @description Only when RAG_RERANK_ENABLED: `applied`, the cross-encoder reordered the fused top RAG_RERANK_CANDIDATES (item scores are its scores, 0 to 1); `failed`, it failed and the fused order stands (the log says why).
                 * @enum {string}
                 */
                rerank?: "applied" | "failed";
                classification: {
                    /** @description Filters the metadata rules' query patterns found in the question. */
                    filters: {
                        [key: string]: string;
                    };
                    ambiguous: {
                        [key: string]: {
                            candidates: string[];
                            chosen: string | null;
                            /** @enum {string} */
                            by: "priority" | "llm";
                        };
                    };
                };
            };
            /** @description Milliseconds per stage. */
            timing: {
                classify: number;
                retrieve: number;
                /** @description Milliseconds the cross-encoder took; only when RAG_RERANK_ENABLED. */
                rerank?: number;
                generate: number;
                total: number;
            };
            /** @description Tokens of the prompt and the answer, the model's tokenizer's count or an estimate; 0 without passages. */
            usage: {
                prompt_tokens: number;
                completion_tokens: number;
                total_tokens: number;
            };
            answer: string;
        };
        ChatSource: {
            /** @description The number the answer cites as [n]. */
            index: number;
            /** Format: uuid */
            chunk_id: string;
            /** Format: uuid */
            document_id: string;
            title: string;
            path: string;
            text: string;
            score: number;
            metadata: {
                [key: string]: unknown;
            };
            location: components["schemas"]["SourceLocation"];
        };
        ConversationSummary: {
            /** Format: uuid */
            id: string;
            /** @description The first question, shortened. */
            title: string;
            turns: number;
            created_at: string;
            updated_at: string;
        };
        ConversationTurn: {
            query: string;
            rewritten_query: string | null;
            answer: string;
            /** @description As in the chat answer, without the chunk text. */
            sources: {
                [key: string]: unknown;
            }[];
            retrieval_settings: {
                [key: string]: unknown;
            };
            token_budget: {
                [key: string]: unknown;
            } | null;
            timing: {
                [key: string]: number;
            };
            created_at: string;
            /** @description The owner's thumbs up or down on this answer. */
            feedback: components["schemas"]["TurnFeedback"] | null;
        };
        TurnFeedback: {
            /** @enum {string} */
            rating: "up" | "down";
            comment: string | null;
            updated_at: string;
        };
        AuditEntry: {
            /** Format: uuid */
            id: string;
            /** @description Position in the log; the hash chain runs in this order. */
            seq: number;
            occurred_at: string;
            /** @description chat.query, sync.all, config.update, license.apply, user.create, user.delete, … */
            type: string;
            actor: {
                /** Format: uuid */
                id: string;
                username: string;
            } | null;
            ip: string | null;
            target: string | null;
            /** @enum {string} */
            outcome: "success" | "failure";
            details: {
                [key: string]: unknown;
            };
            prev_hash: string;
            /** @description SHA-256 over prev_hash and this entry's fields. */
            hash: string;
        };
        Branding: {
            name: string;
            colors: {
                primary: string;
                accent: string;
                background: string;
                text: string;
            };
            texts: {
                welcome: string;
                chat_placeholder: string;
                footer: string;
                support_email: string;
            };
            /** @description Changes whenever the logo changes, so it can be cached for long. */
            logo_url: string | null;
            updated_at: string | null;
        };
        License: {
            /**
             * @description The plan in effect: FREE without a license or once it has expired.
             * @enum {string}
             */
            plan: "FREE" | "PRO" | "ENTERPRISE";
            licensee: string | null;
            license_id: string | null;
            /** @description ISO 8601; null without a license. */
            expires_at: string | null;
            /** @description A license was applied but has expired: the plan fell back to FREE; no data was deleted. */
            lapsed: boolean;
            /** @description null: unlimited. */
            limits: {
                documents: number | null;
                file_size_bytes: number | null;
                storage_bytes: number | null;
            };
            /** @description What is stored now, counted as the limits count it. */
            usage: {
                documents: number;
                storage_bytes: number;
            };
        };
        RuntimeSettings: {
            /** @description Every runtime setting (the spec's "seed" variables) as stored now. */
            settings: {
                [key: string]: string | number | boolean;
            };
            /** @description Read-only values derived at start-up. */
            derived: {
                EFFECTIVE_N_CTX: number;
            };
        };
    };
    responses: {
        /** @description Malformed JSON or wrong content type (bad_request). */
        Error400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing, invalid or expired token (unauthorized, token_expired). */
        Error401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Role or plan below what the endpoint needs (forbidden, plan_required, plan_limit). */
        Error403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unknown id (not_found). */
        Error404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Validation failure (validation_failed) with field errors. */
        Error422: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limited (rate_limited); see Retry-After. */
        Error429: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A dependency is down (unavailable). */
        Error503: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unexpected failure (internal). */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy or degraded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Semantic version of the running application. */
                        version: string;
                        /** @description Source commit, or "unknown". */
                        commit: string;
                        /** @description ISO 8601 build time, or "unknown". */
                        build_date: string;
                        /** @enum {string} */
                        status: "ok" | "degraded";
                        checks: {
                            /** @enum {string} */
                            database: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                            /** @enum {string} */
                            jobs: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                            /** @enum {string} */
                            llm: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                            /**
                             * @description The vector store's database (VECTORDB_URL's server when set).
                             * @enum {string}
                             */
                            vectors: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                        };
                        /** @description DATABASE_READ_URL's read replicas as the last probe (every few seconds) found them; empty without. */
                        replicas: {
                            /** @description host:port/database of the replica (never its password). */
                            name: string;
                            /**
                             * @description lagging: further behind than DATABASE_READ_MAX_LAG_SECONDS; down and lagging take no reads.
                             * @enum {string}
                             */
                            status: "up" | "down" | "lagging";
                            /** @description Seconds behind the primary at the last probe; null when down. */
                            lag_seconds: number | null;
                        }[];
                    };
                };
            };
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            /** @description The database is down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Semantic version of the running application. */
                        version: string;
                        /** @description Source commit, or "unknown". */
                        commit: string;
                        /** @description ISO 8601 build time, or "unknown". */
                        build_date: string;
                        /** @enum {string} */
                        status: "ok" | "degraded";
                        checks: {
                            /** @enum {string} */
                            database: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                            /** @enum {string} */
                            jobs: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                            /** @enum {string} */
                            llm: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                            /**
                             * @description The vector store's database (VECTORDB_URL's server when set).
                             * @enum {string}
                             */
                            vectors: "ok" | "error" | "timeout" | "stopped" | "not_configured";
                        };
                        /** @description DATABASE_READ_URL's read replicas as the last probe (every few seconds) found them; empty without. */
                        replicas: {
                            /** @description host:port/database of the replica (never its password). */
                            name: string;
                            /**
                             * @description lagging: further behind than DATABASE_READ_MAX_LAG_SECONDS; down and lagging take no reads.
                             * @enum {string}
                             */
                            status: "up" | "down" | "lagging";
                            /** @description Seconds behind the primary at the last probe; null when down. */
                            lag_seconds: number | null;
                        }[];
                    };
                };
            };
            default: components["responses"]["Error"];
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Version metadata. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Semantic version of the running application. */
                        version: string;
                        /** @description Source commit, or "unknown". */
                        commit: string;
                        /** @description ISO 8601 build time, or "unknown". */
                        build_date: string;
                    };
                };
            };
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    username: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in, or the TOTP step is next. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"] | {
                        /** @constant */
                        mfa_required: true;
                        mfa_token: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refresh_token: string;
                };
            };
        };
        responses: {
            /** @description A new pair. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    logoutEverywhere: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out everywhere. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    forgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description The password is set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    setOwnEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string | null;
                };
            };
        };
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description A new pair. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateAuthSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    access_token_expire_seconds?: number;
                    refresh_token_expire_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The authentication settings now in effect. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token_expire_seconds: number;
                        refresh_token_expire_seconds: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    setupTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret to enrol. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: string;
                        otpauth_uri: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    enableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description Enabled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        recovery_codes: string[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    disableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code?: string;
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Disabled. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    verifyTotpLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    mfa_token: string;
                    code: string;
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listOidcSignInProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Names and display names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            name: string;
                            display_name: string;
                        }[];
                    };
                };
            };
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    startOidcSignIn: {
        parameters: {
            query?: {
                return_to?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the identity provider (Location). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    finishOidcSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in (Accept: application/json). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Signed in; to the web UI with the tokens in the fragment. */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listOidcProviders: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of providers, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["OidcProvider"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    display_name: string;
                    /** Format: uri */
                    discovery_url: string;
                    client_id: string;
                    /** @default null */
                    client_secret?: string | null;
                    /** Format: uri */
                    redirect_uri?: string;
                    /** @default openid email profile */
                    scopes?: string;
                    /** @default [] */
                    admin_groups?: string[];
                    /** @default groups */
                    groups_claim?: string;
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcProvider"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcProvider"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name?: string;
                    /** Format: uri */
                    discovery_url?: string;
                    client_id?: string;
                    client_secret?: string | null;
                    /** Format: uri */
                    redirect_uri?: string;
                    scopes?: string;
                    admin_groups?: string[];
                    groups_claim?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The provider. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcProvider"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, by user name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["User"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    username: string;
                    password: string;
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    role?: "admin" | "editor" | "viewer";
                    /** @default null */
                    email?: string | null;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password?: string;
                    /** @enum {string} */
                    role?: "admin" | "editor" | "viewer";
                    email?: string | null;
                };
            };
        };
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ApiKey"][];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description read: search, chat, documents; write: upload, delete, sources; admin: admin routes. Within the role.
                     * @default [
                     *       "read"
                     *     ]
                     */
                    scopes?: ("read" | "write" | "admin")[];
                    /**
                     * @description Left out or null: the key does not expire.
                     * @default null
                     */
                    expires_in_days?: number | null;
                };
            };
        };
        responses: {
            /** @description Created; keep the key now. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        user_id: string;
                        name: string;
                        /** @description The start of the key, to recognise it; the rest is never shown again. */
                        prefix: string;
                        scopes: ("read" | "write" | "admin")[];
                        created_at: string;
                        expires_at: string | null;
                        /** @description To the minute. */
                        last_used_at: string | null;
                        /** @description The key itself, shown only in this answer: `docqa_` and 43 characters. */
                        key: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            /** @description A scope beyond the caller's role, or an invalid field. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such key of the caller's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listUserApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ApiKey"][];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    revokeUserApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such key of this user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listGroups: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Group"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default  */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string;
                        builtin: boolean;
                        /** @description null for the built-in everyone group, which holds every user. */
                        member_count: number | null;
                        created_at: string;
                        updated_at: string;
                        members: {
                            /** Format: uuid */
                            id: string;
                            username: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    addGroupMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user is a member. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    removeGroupMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user is not a member. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listOwnGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Groups, the built-in everyone first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Group"][];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getResourceAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                resource_type: "connector" | "integration" | "document";
                resource_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The grants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource_type: string;
                        resource_id: string;
                        /** @description Empty: every signed-in user may see the resource. */
                        group_ids: string[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    setResourceAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                resource_type: "connector" | "integration" | "document";
                resource_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    group_ids: string[];
                };
            };
        };
        responses: {
            /** @description The grants now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        resource_type: string;
                        resource_id: string;
                        /** @description Empty: every signed-in user may see the resource. */
                        group_ids: string[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    uploadDocuments: {
        parameters: {
            query?: {
                /** @description Store the files in this connector's storage (a filesystem connector's directory) and index them as its documents. Also accepted as a form field sent before the file parts. */
                connector_id?: string;
                /** @description With connector_id: the directory, relative to the connector's root, that receives the files (created when missing); default the root. Also accepted as a form field sent before the file parts. */
                directory?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; indexing runs as jobs. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        documents: {
                            /** Format: uuid */
                            id: string;
                            filename: string;
                            path: string;
                            title: string | null;
                            media_type: string;
                            size_bytes: number;
                            /** @description SHA-256 of the bytes. */
                            content_hash: string;
                            /** @enum {string} */
                            status: "pending" | "indexing" | "indexed" | "failed";
                            error: string | null;
                            job_id: string | null;
                            /** @enum {string} */
                            source_type: "upload" | "connector" | "integration";
                            source_id: string | null;
                            chunk_count: number;
                            metadata: {
                                [key: string]: string;
                            };
                            created_at: string;
                            updated_at: string;
                            indexed_at: string | null;
                            duplicate: boolean;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                status?: "pending" | "indexing" | "indexed" | "failed";
                /** @description Part of the file name, path or title. */
                q?: string;
                /** @description Only uploads, or only documents of connectors or of integrations. */
                source_type?: "upload" | "connector" | "integration";
                /** @description Only the documents of this connector or integration. */
                source_id?: string;
                /** @description Only the documents of this connector (source_type connector and source_id). */
                connector_id?: string;
                /** @description Only the documents of this integration. */
                integration_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of documents, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Document"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such document the caller may see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteDocument: {
        parameters: {
            query?: {
                /** @description The document's connector: its file is deleted from the connector's storage too. Without it only the index forgets the document (a connector's file stays, and comes back when it changes or the connector syncs from scratch). */
                connector_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description What was deleted and what was not found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: string[];
                        not_found: string[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    moveDocument: {
        parameters: {
            query?: {
                /** @description As `connector_id` in the body (which wins when both are sent). */
                connector_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    document_id: string;
                    /** @description Connector-scoped when the document belongs to a connector or `connector_id` is given: relative to the connector's directory, `/`-separated (for example `reports/2026/q1.pdf`); the file is moved there and missing directories are created. For uploads without `connector_id`: the document's new path. */
                    target_path: string;
                    /**
                     * Format: uuid
                     * @description The connector whose storage the document moves in (or, for an upload, into).
                     */
                    connector_id?: string;
                };
            };
        };
        responses: {
            /** @description The moved document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getDocumentContent: {
        parameters: {
            query?: {
                /** @description First character (UTF-16 code unit) of the text to return; at most total_chars. */
                offset?: number;
                /** @description Characters to return, at most 100000. */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text and its map. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentContent"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such document the caller may see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The text was not kept with its sections (`reason`: `reindex_required`, or `not_indexed` while the document is not indexed): re-index the document. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description offset past the end of the text, or limit outside 1 to 100000. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getDocumentFile: {
        parameters: {
            query?: {
                /** @description `inline` lets a browser show a PDF in place; every other type is always sent as an attachment. */
                disposition?: "attachment" | "inline";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unchanged since the ETag sent. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such document the caller may see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The stored file is gone (`reason`: `file_missing`): sync the source or upload it again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getIndexStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Index statistics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IndexStats"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    rebuildIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rebuild job. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        job_id: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    syncAllSources: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One job per source. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job_ids: string[];
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listConnectors: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of connectors. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Source"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createConnector: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    type: string;
                    config: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connector. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    type: string;
                    config: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The connector. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    scanConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        job_id: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listIntegrations: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of integrations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Source"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    type: string;
                    config: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The integration. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    type: string;
                    config: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The integration. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    syncIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        job_id: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                kind?: "scan" | "sync" | "ingest" | "rebuild" | "metadata_refresh" | "retention_sweep" | "model_pull";
                status?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
                source_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of jobs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Job"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description No such job, or a finished one whose state expired. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listMetadataRules: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                /** @description A connector or integration id. */
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Rule"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createMetadataRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id. */
                source_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    field_name: string;
                    pattern: string;
                    query_pattern?: string | null;
                    scope: string;
                    level: string;
                    chunk_boundary?: boolean;
                    priority?: number;
                    /** @description Read-only; accepted and ignored. */
                    id?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    source_id?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    source_type?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    created_at?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    updated_at?: unknown;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateMetadataRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id. */
                source_id: string;
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    field_name: string;
                    pattern: string;
                    query_pattern?: string | null;
                    scope: string;
                    level: string;
                    chunk_boundary?: boolean;
                    priority?: number;
                    /** @description Read-only; accepted and ignored. */
                    id?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    source_id?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    source_type?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    created_at?: unknown;
                    /** @description Read-only; accepted and ignored. */
                    updated_at?: unknown;
                };
            };
        };
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteMetadataRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id. */
                source_id: string;
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    testMetadataRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id. */
                source_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    rule: {
                        field_name: string;
                        pattern: string;
                        query_pattern?: string | null;
                        scope: string;
                        level: string;
                        chunk_boundary?: boolean;
                        priority?: number;
                        /** @description Read-only; accepted and ignored. */
                        id?: unknown;
                        /** @description Read-only; accepted and ignored. */
                        source_id?: unknown;
                        /** @description Read-only; accepted and ignored. */
                        source_type?: unknown;
                        /** @description Read-only; accepted and ignored. */
                        created_at?: unknown;
                        /** @description Read-only; accepted and ignored. */
                        updated_at?: unknown;
                    };
                    sample_text: string;
                    /** @default sample.txt */
                    filename?: string;
                };
            };
        };
        responses: {
            /** @description What the rule would extract. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        document: {
                            [key: string]: string;
                        };
                        chunks: {
                            text: string;
                            values: {
                                [key: string]: string;
                            };
                            origin: {
                                [key: string]: "self" | "inherited";
                            };
                        }[];
                        boundaries: number[];
                        error: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    refreshMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id. */
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        job_id: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    chunkSizeDistribution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Histogram of chunk lengths with summary statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        /** @constant */
                        unit: "characters";
                        /** @description Summary statistics; percentiles interpolate linearly (percentile_cont). Null when count is 0. */
                        summary: {
                            count: number;
                            min: number | null;
                            max: number | null;
                            mean: number | null;
                            median: number | null;
                            p90: number | null;
                        };
                        histogram: {
                            /** @description Inclusive lower edge. */
                            min: number;
                            /** @description Exclusive upper edge; null for the last, open bucket. */
                            max: number | null;
                            count: number;
                        }[];
                        /** @description RAG_MIN_CHUNK_LENGTH now in effect. */
                        min_chunk_length: number;
                        /** @description Chunks shorter than it: whole short documents, or chunks indexed under a lower setting. */
                        below_min_chunk_length: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    metadataHitRate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Per-rule match rate across documents and chunks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        /** @description Chunks of the indexed documents. */
                        chunks: number;
                        /** @description Every rule of the source, in the order the rules are applied (priority, then id). */
                        rules: {
                            /** Format: uuid */
                            rule_id: string;
                            field_name: string;
                            /** @enum {string} */
                            level: "document" | "chunk";
                            /** @enum {string} */
                            scope: "full" | "header" | "filename";
                            priority: number;
                            chunk_boundary: boolean;
                            /** @description Documents where the rule matched and supplied the field. */
                            matched: number;
                            /** @description Documents where the rule ran without a match. */
                            no_match: number;
                            /** @description Documents where the rule did not run: a rule earlier in priority order had supplied the field. */
                            shadowed: number;
                            /** @description Documents where the rule failed (over its time budget). */
                            failed: number;
                            /** @description Indexed documents without an outcome for the rule: indexed before the rule existed. A metadata refresh fills them. */
                            not_applied: number;
                            /** @description Outcomes recorded before the rule was last changed. A metadata refresh updates them. */
                            stale: number;
                            /** @description Chunks whose value comes from a match inside them (every chunk of a matched document for document-level rules). */
                            self_chunks: number;
                            /** @description Chunks that inherited the value from an earlier chunk (chunk-level rules). */
                            inherited_chunks: number;
                            /** @description matched / (matched + no_match + failed): how often the pattern matches where it runs. */
                            document_match_rate: number | null;
                            /** @description matched / documents: share of the source's documents that got the field from this rule. */
                            document_hit_rate: number | null;
                            /** @description self_chunks / chunks. */
                            chunk_hit_rate: number | null;
                            /** @description (self_chunks + inherited_chunks) / chunks. */
                            chunk_value_rate: number | null;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    metadataCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Per-field metadata coverage ratio */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        chunks: number;
                        /** @description Every field a rule of the source produces, and every other field on an indexed document, by name. Rule fields are counted from the recorded rule outcomes (see metadata-hit-rate for documents not yet evaluated). */
                        fields: {
                            field_name: string;
                            /** @description Rules of the source producing this field, in evaluation order; empty for a field only the extractor sets (a PDF's author), which chunks never carry. */
                            rule_ids: string[];
                            /** @description Documents with the field on the document or on at least one chunk. */
                            documents_with_value: number;
                            /** @description documents_with_value / documents. */
                            document_coverage: number | null;
                            chunks_with_value: number;
                            /** @description chunks_with_value / chunks. */
                            chunk_coverage: number | null;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    chunksPerDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Chunks per document with summary statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        /** @description Documents of the source pending, indexing or failed: not counted above. */
                        documents_not_indexed: number;
                        /** @description Summary statistics; percentiles interpolate linearly (percentile_cont). Null when count is 0. */
                        summary: {
                            count: number;
                            min: number | null;
                            max: number | null;
                            mean: number | null;
                            median: number | null;
                            p90: number | null;
                        };
                        histogram: {
                            /** @description Inclusive lower edge. */
                            min: number;
                            /** @description Exclusive upper edge; null for the last, open bucket. */
                            max: number | null;
                            count: number;
                        }[];
                        /** @description The documents with the most chunks, at most 10. */
                        largest: {
                            /** Format: uuid */
                            document_id: string;
                            path: string;
                            chunks: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    inheritanceRatio: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Self-matched vs inherited vs empty chunks for chunk-level rules */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        /** @description Fields with at least one chunk-level rule, by name. */
                        fields: {
                            field_name: string;
                            /** @description Documents with an outcome for a rule of the field (documents indexed before every rule of it existed are left out). */
                            documents: number;
                            /** @description Chunks of those documents. */
                            chunks: number;
                            /** @description Chunks with the value from a match inside them. */
                            self: number;
                            /** @description Chunks carrying the value of a match in an earlier chunk. */
                            inherited: number;
                            /** @description Chunks carrying a value a document-level rule of the same field supplied. */
                            document_level: number;
                            /** @description Chunks without the field: before the first match, or in documents without any. */
                            empty: number;
                            /** @description self / chunks. */
                            self_ratio: number | null;
                            /** @description inherited / chunks. */
                            inherited_ratio: number | null;
                            /** @description empty / chunks. */
                            empty_ratio: number | null;
                            /** @description inherited / (self + inherited): how much of the field rests on inheritance. */
                            inherited_share: number | null;
                            rules: {
                                /** Format: uuid */
                                rule_id: string;
                                priority: number;
                                documents_won: number;
                                self: number;
                                inherited: number;
                            }[];
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    emptyMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Chunks with no metadata, and sample documents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        chunks: number;
                        /** @description Chunks without any metadata value (neither their own, inherited, nor their document's). */
                        empty_chunks: number;
                        /** @description empty_chunks / chunks. */
                        empty_ratio: number | null;
                        documents_with_empty_chunks: number;
                        /** @description Documents none of whose chunks has metadata. */
                        documents_all_empty: number;
                        /** @description Documents with the most empty chunks, most first. */
                        samples: {
                            /** Format: uuid */
                            document_id: string;
                            path: string;
                            empty_chunks: number;
                            chunks: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    rulePriorityAudit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connector or integration id, or `uploads` for the uploaded documents (which have no rules). */
                source_id: "uploads" | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Winner counts of rules competing for a field */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The connector or integration id, or `uploads` for uploaded documents. */
                        source_id: string;
                        /** @enum {string} */
                        source_type: "connector" | "integration" | "upload";
                        /** @description Indexed documents of the source (the ones analysed). */
                        documents: number;
                        /** @description Fields with two or more rules competing, by name; their rules in evaluation order. */
                        fields: {
                            field_name: string;
                            /** @description Documents where one of the field's rules matched. */
                            documents_with_value: number;
                            /** @description Documents where they all ran without a match (or failed). */
                            documents_without_value: number;
                            /** @description Two or more rules share a priority: their order is decided by rule id, which is rarely meant. */
                            equal_priorities: boolean;
                            rules: {
                                /** Format: uuid */
                                rule_id: string;
                                field_name: string;
                                /** @enum {string} */
                                level: "document" | "chunk";
                                /** @enum {string} */
                                scope: "full" | "header" | "filename";
                                priority: number;
                                chunk_boundary: boolean;
                                /** @description Position in evaluation order, 1 first. */
                                rank: number;
                                /** @description Documents where the rule matched and supplied the field. */
                                matched: number;
                                /** @description Documents where the rule ran without a match. */
                                no_match: number;
                                /** @description Documents where the rule did not run: a rule earlier in priority order had supplied the field. */
                                shadowed: number;
                                /** @description Documents where the rule failed (over its time budget). */
                                failed: number;
                                /** @description Indexed documents without an outcome for the rule: indexed before the rule existed. A metadata refresh fills them. */
                                not_applied: number;
                                /** @description Outcomes recorded before the rule was last changed. A metadata refresh updates them. */
                                stale: number;
                                /** @description matched / documents_with_value: the share of the field's values this rule supplies. */
                                win_share: number | null;
                                /** @description Chunks carrying this rule's value (own or inherited). */
                                chunks_supplied: number;
                            }[];
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    feedbackReport: {
        parameters: {
            query?: {
                /** @description The length of one period; periods start at UTC midnight. */
                period?: "day" | "week" | "month";
                /** @description How far back to count, in days. */
                days?: number;
                /** @description How many of the latest down-rated turns. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feedback report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        period: "day" | "week" | "month";
                        days: number;
                        /** @description Over every period listed. */
                        totals: {
                            up: number;
                            down: number;
                        };
                        /** @description Oldest first, empty periods included. A turn counts once, in the period it was last rated. */
                        periods: {
                            /** @description The first day of the period, YYYY-MM-DD (UTC). */
                            start: string;
                            up: number;
                            down: number;
                        }[];
                        /** @description The most recently down-rated answers, newest first. */
                        latest_down: {
                            /** Format: uuid */
                            conversation_id: string;
                            /** @description The turn within its conversation, 0-based, as the conversation shows it. */
                            turn_index: number;
                            rated_at: string;
                            comment: string | null;
                            query: string;
                            /** @description The answer, cut after 300 characters. */
                            answer_excerpt: string;
                            sources: {
                                index: number;
                                document_id: string;
                                title: string;
                                path: string;
                            }[];
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of schedules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Schedule"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    source_type: "connector" | "integration";
                    /** Format: uuid */
                    source_id: string;
                    cron: string;
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cron?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @default 10 */
                    top_k?: number;
                    filters?: {
                        document_ids?: string[];
                        /**
                         * @description Only documents from this kind of source, as GET /api/docs filters them.
                         * @enum {string}
                         */
                        source_type?: "upload" | "connector" | "integration";
                        /**
                         * Format: uuid
                         * @description Only this connector's or integration's documents.
                         */
                        source_id?: string;
                        /** @description Every key must have this value on the chunk or on its document. */
                        metadata?: {
                            [key: string]: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description The best chunks, best first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            chunk_id: string;
                            /** Format: uuid */
                            document_id: string;
                            /** @description The document title, or its file name when it has none. */
                            title: string;
                            path: string;
                            text: string;
                            /** @description BM25 in lexical mode, cosine similarity in dense mode, the reciprocal rank fusion score in hybrid mode; the reranker's score when retrieval_settings.rerank is `applied`. */
                            score: number;
                            metadata: {
                                [key: string]: unknown;
                            };
                            location: components["schemas"]["SourceLocation"];
                        }[];
                        retrieval_settings: {
                            /** @enum {string} */
                            mode: "lexical" | "dense" | "hybrid";
                            top_k: number;
                            filters: {
                                document_ids?: string[];
                                /** @enum {string} */
                                source_type?: "upload" | "connector" | "integration";
                                /** Format: uuid */
                                source_id?: string;
                                metadata?: {
                                    [key: string]: string;
                                };
                            };
                            rewritten_query: string | null;
                            /**
                             * @description Only when RAG_RERANK_ENABLED: `applied`, the cross-encoder reordered the fused top RAG_RERANK_CANDIDATES (item scores are its scores, 0 to 1); `failed`, it failed and the fused order stands (the log says why).
                             * @enum {string}
                             */
                            rerank?: "applied" | "failed";
                        };
                        timing: {
                            /** @description Milliseconds. */
                            retrieve: number;
                            /** @description Milliseconds the cross-encoder took; only when RAG_RERANK_ENABLED. */
                            rerank?: number;
                            /** @description Milliseconds. */
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    chat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @description Continue this conversation. An id no conversation has yet starts one under that id, owned by the caller (clients may choose their own ids); a new id is made when left out. */
                    conversation_id?: string | null;
                    /**
                     * @description Passages retrieved before the token budget trims them.
                     * @default 6
                     */
                    top_k?: number;
                    filters?: {
                        document_ids?: string[];
                        /**
                         * @description Only documents from this kind of source, as GET /api/docs filters them.
                         * @enum {string}
                         */
                        source_type?: "upload" | "connector" | "integration";
                        /**
                         * Format: uuid
                         * @description Only this connector's or integration's documents.
                         */
                        source_id?: string;
                        metadata?: {
                            [key: string]: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description The answer (JSON), or an event stream (text/event-stream). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatAnswer"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description The conversation does not exist or is not the caller's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Empty, over-long or non-string query; or a question too long for the model's context window. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["Error429"];
            /** @description The model could not answer (JSON mode). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    openAiListModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "list";
                        data: {
                            id: string;
                            /** @constant */
                            object: "model";
                            created: number;
                            owned_by: string;
                        }[];
                    };
                };
            };
            /** @description Invalid body (OpenAI error shape). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description No, or a bad, API key or access token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description The key lacks the read scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    openAiGetModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        object: "model";
                        created: number;
                        owned_by: string;
                    };
                };
            };
            /** @description Invalid body (OpenAI error shape). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description No, or a bad, API key or access token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description The key lacks the read scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description Unknown model. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    openAiChatCompletion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    model: string;
                    messages: {
                        /** @enum {string} */
                        role: "system" | "developer" | "user" | "assistant" | "tool" | "function";
                        content?: (string | {
                            type: string;
                            text?: string;
                        }[]) | null;
                    }[];
                    stream?: boolean | null;
                    stream_options?: {
                        include_usage?: boolean | null;
                    } | null;
                    /** @description One choice only. */
                    n?: 1 | null;
                };
            };
        };
        responses: {
            /** @description The answer, or a stream of chunks (text/event-stream). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        object: "chat.completion";
                        created: number;
                        model: string;
                        choices: {
                            index: number;
                            message: {
                                /** @constant */
                                role: "assistant";
                                content: string;
                            };
                            /** @constant */
                            finish_reason: "stop";
                        }[];
                        usage: {
                            prompt_tokens: number;
                            completion_tokens: number;
                            total_tokens: number;
                        };
                        /** @description The passages cited as [n] (`index` is n): chunk_id, document_id, title, path, text, score, metadata, location (SourceLocation: pages, heading path, sheet, rows, offsets in the extracted text). */
                        docqa_sources: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description Invalid body (OpenAI error shape). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description No, or a bad, API key or access token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description The key lacks the read scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            /** @description Unknown model. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            message: string;
                            type: string;
                            param: string | null;
                            code: string | null;
                        };
                    };
                };
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": ({
                    /** @constant */
                    jsonrpc: "2.0";
                    id?: string | number;
                    method?: string;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                }) | ({
                    /** @constant */
                    jsonrpc: "2.0";
                    id?: string | number;
                    method?: string;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description The JSON-RPC response (a call of `ask`: one `message` event of it, text/event-stream). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        id: (string | number) | null;
                        result?: {
                            [key: string]: unknown;
                        };
                        error?: {
                            code: number;
                            message: string;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A notification or a response from the client, accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            /** @description The Accept header lacks application/json or text/event-stream (a JSON-RPC error). */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listConversations: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ConversationSummary"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description The first question, shortened. */
                        title: string;
                        created_at: string;
                        updated_at: string;
                        turns: components["schemas"]["ConversationTurn"][];
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description Unknown, or not the caller's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    deleteConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description Unknown, or not the caller's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    setTurnFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                /** @description The turn, 0-based, in the order the conversation shows them. */
                index: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description null clears the feedback (and its comment). */
                    rating: ("up" | "down") | null;
                    comment?: string | null;
                };
            };
        };
        responses: {
            /** @description The feedback now stored, null when cleared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        feedback: components["schemas"]["TurnFeedback"] | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            /** @description Unknown conversation or turn, or not the caller's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getModelInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Model information. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description local (a GGUF model in process, or the inference server at INFERENCE_URL, then with `endpoint`), hosted, extractive (no language model: answers quote the best-matching passages), or none (an edition without a chat backend: chat answers 503). */
                        backend: string;
                        /**
                         * @description LLM_BACKEND.
                         * @enum {string}
                         */
                        configured_backend: "local" | "hosted";
                        model: string;
                        /** @description false for the extractive backend. */
                        generative: boolean;
                        streaming: boolean;
                        /** @description The token budget counts with the model's own tokenizer; otherwise it estimates. */
                        exact_token_count: boolean;
                        /** @description The model's own limit, when known: a GGUF file's training context, what the inference server reports (GET /props), or what a hosted API publishes. */
                        context_length: number | null;
                        /** @description N_CTX, as requested. */
                        n_ctx: number;
                        /** @description EFFECTIVE_N_CTX: the context window in effect. */
                        effective_n_ctx: number;
                        gpu: boolean;
                        file?: string;
                        size_bytes?: number;
                        quantization?: string;
                        license?: string;
                        /** @description Where a hosted model or the inference server is reached. */
                        endpoint?: string;
                        /** @description true: the chat model was chosen with docqa models use (POST /api/models/use) rather than by LLM_MODEL_PATH. */
                        switched?: boolean;
                        /** @description The embedding model of dense retrieval; null: lexical retrieval only. */
                        embedding: {
                            model: string;
                            dimensions: number;
                            /** @enum {string} */
                            source?: "switched" | "configured";
                            file?: string;
                            size_bytes?: number;
                            quantization?: string;
                            context_length?: number;
                            license?: string;
                            /** @description The local embedding model computes on a GPU (see device). */
                            gpu?: boolean;
                            /** @description Where a local embedding model computes: cpu, cuda, vulkan or metal, as EMBED_DEVICE (auto, cpu, cuda) chose; absent for an embeddings API. */
                            device?: string;
                        } | null;
                        /** @description Whether RAG_CLASSIFIER_LLM_ENABLED has an effect with the chat backend in use. */
                        classifier_llm: {
                            /** @description RAG_CLASSIFIER_LLM_ENABLED. */
                            enabled: boolean;
                            /** @description Ambiguous queries are put to the chat model in use. */
                            active: boolean;
                            /** @description Why an enabled setting has no effect (the extractive backend). */
                            note?: string;
                        };
                        note?: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getHardware: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Hardware information. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cpu: {
                            model: string;
                            cores: number;
                            architecture: string;
                            load_average: number[];
                        };
                        memory: {
                            total_bytes: number;
                            available_bytes: number;
                            process_rss_bytes: number;
                        };
                        gpus: {
                            /** @constant */
                            vendor: "nvidia";
                            name: string;
                            bus_id: string | null;
                        }[];
                        cuda_available: boolean;
                        platform: string;
                        node_version: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Models. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        models_dir: string;
                        /** @description The catalogue file (MODELS_CATALOGUE, or the one shipped with DocQA). */
                        catalogue: string;
                        available: {
                            name: string;
                            /**
                             * @description reranking: a cross-encoder for RAG_RERANK_MODEL, never switched in with POST /api/models/use.
                             * @enum {string}
                             */
                            purpose: "chat" | "embedding" | "reranking";
                            tier: string | null;
                            recommended: boolean;
                            description: string;
                            size: string | null;
                            size_bytes: number | null;
                            quantization: string | null;
                            context_length: number | null;
                            dimensions: number | null;
                            license: string | null;
                            source: string;
                            sha256: string | null;
                            /** @description Every field was checked against the public model pages; `note` says how. */
                            verified: boolean;
                            note: string | null;
                            installed: boolean;
                        }[];
                        installed: {
                            name: string;
                            file: string;
                            /**
                             * @description reranking: a cross-encoder for RAG_RERANK_MODEL, never switched in with POST /api/models/use.
                             * @enum {string}
                             */
                            purpose: "chat" | "embedding" | "reranking";
                            size_bytes: number;
                            architecture: string;
                            quantization: string | null;
                            context_length: number | null;
                            embedding_length: number | null;
                            license: string | null;
                            from_catalogue: boolean;
                        }[];
                        active: {
                            chat: {
                                /** @enum {string} */
                                source: "switched" | "configured";
                                name: string;
                                file: string;
                                quantization: string | null;
                                context_length: number | null;
                                license: string | null;
                            } | null;
                            embedding: {
                                /** @enum {string} */
                                source: "switched" | "configured";
                                name: string;
                                file: string;
                                quantization: string | null;
                                context_length: number | null;
                                license: string | null;
                            } | null;
                        };
                        index: {
                            chunks: number;
                            embedded_chunks: number;
                            /** @description Chunks lack a vector of the embedding model in use (after a switch): POST /api/index/rebuild re-embeds them. */
                            stale: boolean;
                            embedding_space: {
                                model: string;
                                dimensions: number;
                            } | null;
                        };
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    pullModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The pull job. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        job_id: string;
                        name: string;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    useModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string | null;
                    /** @enum {string} */
                    purpose?: "chat" | "embedding";
                    /** @default false */
                    reembed?: boolean;
                };
            };
        };
        responses: {
            /** @description The model now in use. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        purpose: "chat" | "embedding";
                        name: string | null;
                        previous: string | null;
                        effective_n_ctx: number;
                        index: {
                            chunks: number;
                            embedded_chunks: number;
                            /** @description Chunks lack a vector of the embedding model in use (after a switch): POST /api/index/rebuild re-embeds them. */
                            stale: boolean;
                            embedding_space: {
                                model: string;
                                dimensions: number;
                            } | null;
                        };
                        rebuild_job_id: string | null;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Event type, e.g. chat.query. */
                type?: string;
                /** @description Actor: a user id or a user name. */
                user?: string;
                outcome?: "success" | "failure";
                /** @description Entries at or after this time (ISO 8601). */
                from?: string;
                /** @description Entries before this time (ISO 8601). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AuditEntry"][];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getAuditConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Retention. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RAG_AUDIT_RETENTION_DAYS: entries older than this are removed by the daily retention sweep. */
                        retention_days: number;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateAuditConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description RAG_AUDIT_RETENTION_DAYS: entries older than this are removed by the daily retention sweep. */
                    retention_days: number;
                };
            };
        };
        responses: {
            /** @description The policy now in effect. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description RAG_AUDIT_RETENTION_DAYS: entries older than this are removed by the daily retention sweep. */
                        retention_days: number;
                    };
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    verifyAuditChain: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verification result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        valid: boolean;
                        checked: number;
                        /** @description Where the chain starts: the genesis hash, or the last entry the retention sweep removed. */
                        anchor: {
                            hash: string;
                            after_seq: number | null;
                        };
                        broken_at: {
                            /** @description Null when the entry is gone: the newest entries were removed. */
                            id: string | null;
                            seq: number;
                            reason: string;
                        } | null;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getAuditEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntry"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getBranding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The branding (DocQA's defaults until an admin sets it). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Branding"];
                };
            };
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateBranding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Product name shown in the UI and emails.
                     * @default DocQA
                     */
                    name?: string;
                    /**
                     * @default {
                     *       "primary": "#1f6feb",
                     *       "accent": "#8250df",
                     *       "background": "#ffffff",
                     *       "text": "#1f2328"
                     *     }
                     */
                    colors?: {
                        /** @default #1f6feb */
                        primary?: string;
                        /** @default #8250df */
                        accent?: string;
                        /** @default #ffffff */
                        background?: string;
                        /** @default #1f2328 */
                        text?: string;
                    };
                    /**
                     * @default {
                     *       "welcome": "Ask a question about your documents.",
                     *       "chat_placeholder": "Ask a question…",
                     *       "footer": "",
                     *       "support_email": ""
                     *     }
                     */
                    texts?: {
                        /** @default Ask a question about your documents. */
                        welcome?: string;
                        /** @default Ask a question… */
                        chat_placeholder?: string;
                        /** @default  */
                        footer?: string;
                        /** @default  */
                        support_email?: string | "";
                    };
                };
            };
        };
        responses: {
            /** @description The branding now in effect. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Branding"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getBrandingLogo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unchanged since the ETag sent. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No logo yet. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    uploadBrandingLogo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored logo. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        media_type: string;
                        width: number;
                        height: number;
                        sha256: string;
                        logo_url: string;
                    };
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            /** @description Larger than 2 MB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not a PNG, JPEG, WebP or safe SVG image. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getLicense: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The license and usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["License"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    applyLicense: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The license key. */
                    license_key: string;
                };
            };
        };
        responses: {
            /** @description Applied; the license now in effect. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["License"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getRuntimeSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings in effect. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeSettings"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    updateRuntimeSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: string | number | boolean;
                };
            };
        };
        responses: {
            /** @description The settings after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuntimeSettings"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics, Prometheus text format 0.0.4. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4": string;
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            503: components["responses"]["Error503"];
            default: components["responses"]["Error"];
        };
    };
}
