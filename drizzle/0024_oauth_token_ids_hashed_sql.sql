-- Tokens and codes were stored under their own value (a read of the table
-- yielded usable bearer tokens). Key them by SHA-256 and drop `jti`, which
-- repeats the value, from their payload (server/auth/oauth/adapter.ts).
UPDATE "oauth_models"
SET "id" = encode(sha256(convert_to("id", 'UTF8')), 'hex'),
    "payload" = "payload" - 'jti'
WHERE "model" IN ('AccessToken', 'AuthorizationCode', 'RefreshToken', 'ClientCredentials', 'DeviceCode',
                  'BackchannelAuthenticationRequest', 'PushedAuthorizationRequest', 'RegistrationAccessToken', 'InitialAccessToken')
  AND "payload" ? 'jti';
