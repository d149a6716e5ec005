-- Enterprise OpenID federation of the embedded provider, with the same
-- tables, columns and indexes as PostgreSQL's (see its
-- 00007_idp_federation.sql for what each holds), in the types of 00001:
-- uuid becomes TEXT, timestamptz INTEGER microseconds in a column
-- declared TIMESTAMP, bytea BLOB, and booleans 0/1.

-- +goose Up
CREATE TABLE idp_federations (
    id                 TEXT      PRIMARY KEY,
    name               TEXT      NOT NULL,
    issuer             TEXT      NOT NULL,
    client_id          TEXT      NOT NULL,
    client_secret      BLOB      NOT NULL,
    trust_upstream_mfa INTEGER   NOT NULL,
    created_at         TIMESTAMP NOT NULL
);

CREATE TABLE idp_federation_domains (
    domain        TEXT PRIMARY KEY,
    federation_id TEXT NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE
);
CREATE INDEX idp_federation_domains_federation ON idp_federation_domains (federation_id);

CREATE TABLE idp_federation_states (
    state_hash      BLOB      PRIMARY KEY,
    auth_request_id TEXT      NOT NULL REFERENCES idp_auth_requests (id) ON DELETE CASCADE,
    federation_id   TEXT      NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    nonce           TEXT      NOT NULL,
    verifier        BLOB      NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL
);
CREATE INDEX idp_federation_states_expiry ON idp_federation_states (expires_at);
CREATE INDEX idp_federation_states_auth_request ON idp_federation_states (auth_request_id);
CREATE INDEX idp_federation_states_federation ON idp_federation_states (federation_id);

-- +goose Down
DROP TABLE idp_federation_states;
DROP TABLE idp_federation_domains;
DROP TABLE idp_federations;
