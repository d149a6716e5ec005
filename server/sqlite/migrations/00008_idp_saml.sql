-- SAML 2.0 federation of the embedded provider, with the same tables,
-- columns and indexes as PostgreSQL's (see its 00008_idp_saml.sql for what
-- each holds), in the types of 00001: uuid becomes TEXT, timestamptz
-- INTEGER microseconds in a column declared TIMESTAMP, bytea BLOB.

-- +goose Up
ALTER TABLE idp_federations ADD COLUMN kind TEXT NOT NULL DEFAULT 'oidc';
ALTER TABLE idp_federations ADD COLUMN saml_metadata TEXT NOT NULL DEFAULT '';

CREATE TABLE idp_saml_requests (
    relay_hash      BLOB      PRIMARY KEY,
    auth_request_id TEXT      NOT NULL REFERENCES idp_auth_requests (id) ON DELETE CASCADE,
    federation_id   TEXT      NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    request_id      TEXT      NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    expires_at      TIMESTAMP NOT NULL
);
CREATE INDEX idp_saml_requests_expiry ON idp_saml_requests (expires_at);
CREATE INDEX idp_saml_requests_auth_request ON idp_saml_requests (auth_request_id);
CREATE INDEX idp_saml_requests_federation ON idp_saml_requests (federation_id);

CREATE TABLE idp_saml_assertions (
    federation_id TEXT      NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    assertion_id  TEXT      NOT NULL,
    expires_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (federation_id, assertion_id)
);
CREATE INDEX idp_saml_assertions_expiry ON idp_saml_assertions (expires_at);

-- +goose Down
DROP TABLE idp_saml_assertions;
DROP TABLE idp_saml_requests;
ALTER TABLE idp_federations DROP COLUMN saml_metadata;
ALTER TABLE idp_federations DROP COLUMN kind;
