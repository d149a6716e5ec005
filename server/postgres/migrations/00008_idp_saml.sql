-- SAML 2.0 federation of the embedded provider (server/idp): a federation
-- is now of a kind, "oidc" (00007) or "saml", whose IdP metadata XML is
-- stored with it (issuer holds the IdP's entity ID, client_id is empty and
-- client_secret a sealed empty secret). The AuthnRequests in progress are
-- stored by the SHA-256 hash of their RelayState, once; the IDs of the
-- assertions accepted are kept until they expire, to refuse replays.

-- +goose Up
ALTER TABLE idp_federations ADD COLUMN kind text NOT NULL DEFAULT 'oidc';
ALTER TABLE idp_federations ADD COLUMN saml_metadata text NOT NULL DEFAULT '';

CREATE TABLE idp_saml_requests (
    relay_hash      bytea       PRIMARY KEY,
    auth_request_id text        NOT NULL REFERENCES idp_auth_requests (id) ON DELETE CASCADE,
    federation_id   uuid        NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    request_id      text        NOT NULL, -- the AuthnRequest's ID, the response's InResponseTo
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL
);
CREATE INDEX idp_saml_requests_expiry ON idp_saml_requests (expires_at);
CREATE INDEX idp_saml_requests_auth_request ON idp_saml_requests (auth_request_id);
CREATE INDEX idp_saml_requests_federation ON idp_saml_requests (federation_id);

CREATE TABLE idp_saml_assertions (
    federation_id uuid        NOT NULL REFERENCES idp_federations (id) ON DELETE CASCADE,
    assertion_id  text        NOT NULL,
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (federation_id, assertion_id)
);
CREATE INDEX idp_saml_assertions_expiry ON idp_saml_assertions (expires_at);

-- +goose Down
DROP TABLE idp_saml_assertions;
DROP TABLE idp_saml_requests;
ALTER TABLE idp_federations DROP COLUMN saml_metadata;
ALTER TABLE idp_federations DROP COLUMN kind;
