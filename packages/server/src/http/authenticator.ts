import type { Request, Response } from 'express';
import type { Algorithm } from 'jsonwebtoken';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { DocqaError } from '@docqa/plugin-api';
import type { Authenticator } from './access.js';
import type { Principal } from '@docqa/core/identity';
import type { ApiKeyService, TokenClaims, TokenService, UserRepository } from '@docqa/core/identity';
import type { Principal as RoutePrincipal } from './route.js';
import { apiKeyPrefix, jwtSecretKey } from '@docqa/core/identity';

/**
 * Bearer tokens through passport-jwt, on a passport instance of our own (not the module's global
 * one). A token is good when it verifies, is an access token, carries the user's current token
 * version (a password change, a reset or sign-out everywhere bumps the version and ends it) and its
 * sign-in was not revoked (a refresh token of it was used twice: it was copied).
 */
export function createJwtAuthenticator(
  tokens: TokenService,
  users: UserRepository,
  secret: string,
  algorithm: string,
): Authenticator {
  const authenticator = new passport.Passport();
  authenticator.use(
    new JwtStrategy(
      {
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        // A key made once (jsonwebtoken would spend about 1 ms per token making one from the string);
        // passport-jwt hands it to jsonwebtoken as it is, whatever its types say.
        secretOrKey: jwtSecretKey(secret) as unknown as Buffer,
        algorithms: [algorithm as Algorithm],
        passReqToCallback: false,
      },
      (payload: TokenClaims, done: (error: unknown, user?: Principal | false, info?: unknown) => void) => {
        if (payload.typ !== 'access')
          return done(null, false, new DocqaError('unauthorized', 'This is not an access token.'));
        // A token from before access tokens named their sign-in has no family to check.
        const familyId = typeof payload.fam === 'string' ? payload.fam : null;
        users.forAccessToken(payload.sub, familyId).then(
          (user) => {
            if (!user || user.token_version !== payload.ver || user.family_revoked)
              return done(null, false, new DocqaError('unauthorized', 'The token was revoked; sign in again.'));
            done(null, { userId: user.id, username: user.username, role: user.role });
          },
          (error: unknown) => done(error),
        );
      },
    ),
  );

  return {
    authenticate(req: Request, res: Response): Promise<Principal | null> {
      if (!req.headers.authorization) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        authenticator.authenticate(
          'jwt',
          { session: false },
          (error: unknown, user: Principal | false, info: unknown) => {
            if (error) return reject(error);
            if (user) return resolve(user);
            if (DocqaError.is(info)) return reject(info);
            // passport-jwt reports a bad signature, a malformed token or expiry as an Error in `info`.
            if ((info as Error | undefined)?.name === 'TokenExpiredError')
              return reject(new DocqaError('token_expired', 'The token has expired; refresh it or sign in again.'));
            try {
              tokens.verify(ExtractJwt.fromAuthHeaderAsBearerToken()(req) ?? '', 'access');
            } catch (verifyError) {
              return reject(verifyError);
            }
            reject(new DocqaError('unauthorized', 'Send the access token as "Authorization: Bearer <token>".'));
          },
        )(req, res, () => undefined);
      });
    },
  };
}

/**
 * A bearer credential with the API key prefix is a key, looked up and then held to its rate limit;
 * anything else goes on to `tokens` (JWTs).
 */
export function withApiKeys(
  tokens: Authenticator,
  apiKeys: ApiKeyService,
  limit: (keyId: string) => Promise<void>,
): Authenticator {
  return {
    async authenticate(req: Request, res: Response): Promise<RoutePrincipal | null> {
      const bearer = ExtractJwt.fromAuthHeaderAsBearerToken()(req);
      if (!bearer?.startsWith(apiKeyPrefix)) return tokens.authenticate(req, res);
      const principal = await apiKeys.authenticate(bearer);
      await limit(principal.apiKey.id);
      return principal;
    },
  };
}
