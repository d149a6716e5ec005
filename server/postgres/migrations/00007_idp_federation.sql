-- Enterprise OpenID federation of the embedded provider (server/idp): an
-- organisation's own OpenID provider, which signs in the addresses of its
-- email domains, and the sign-ins in progress at such a provider.
-- Client secrets are sealed with the service keyring (the AAD names the
-- federation); the state of a sign-in is stored as a SHA-256 hash, its
-- PKCE verifier sealed.

-- +goose Up
CREATE TABLE idp_federations (
    id                 uuid        PRIMARY KEY,
    name               text        NOT NULL, -- shown on the sign-in button
    issuer             text        NOT NULL,
    client_id          text        NOT NULL,
    client_secret      bytea       NOT NULL, -- sealed
    trust_upstream_mfa boolean     NOT NULL, -- take amr from the upstream ID token
    created_at         timestamptz NOT NULL
);

-- The email domains a federation signs in: a domain belongs to one
-- federation at most.
CREATE TABLE idp_federation_domains (
    domain        text PRIMARY KEY, -- lower case, e.g. example.com
    federation_id uuid NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE
);
CREATE INDEX idp_federation_domains_federation ON idp_federation_domains (federation_id);

-- A sign-in sent to a federation's provider, until its callback (once).
CREATE TABLE idp_federation_states (
    state_hash      bytea       PRIMARY KEY,
    auth_request_id text        NOT NULL REFERENCES idp_auth_requests (id) ON DELETE CASCADE,
    federation_id   uuid        NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    nonce           text        NOT NULL,
    verifier        bytea       NOT NULL, -- the PKCE code verifier, sealed
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL
);
CREATE INDEX idp_federation_states_expiry ON idp_federation_states (expires_at);
CREATE INDEX idp_federation_states_auth_request ON idp_federation_states (auth_request_id);
CREATE INDEX idp_federation_states_federation ON idp_federation_states (federation_id);

-- +goose Down
DROP TABLE idp_federation_states;
DROP TABLE idp_federation_domains;
DROP TABLE idp_federations;
