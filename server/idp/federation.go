package idp

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server/sqlstore"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Federation is an organisation's own OpenID provider, which signs in the
// addresses of its email domains: the login page sends them there, and
// refuses their passwords.
type Federation struct {
	ID string // made by [Provider.AddFederation]
	// Name is shown on the sign-in button: "Sign in with Name".
	Name string
	// Issuer is the upstream provider's issuer URL; its discovery document
	// names the endpoints.
	Issuer string
	// ClientID and ClientSecret are the provider's registration upstream,
	// whose redirect URI is [Provider.FederationRedirectURI]. The secret is
	// sealed at rest; [Provider.Federations] leaves it empty.
	ClientID, ClientSecret string
	// Domains are the email domains the federation signs in, e.g.
	// "example.com", in lower case.
	Domains []string
	// TrustUpstreamMFA takes amr from the upstream ID token, so that a
	// second factor there counts here; otherwise a federated sign-in has
	// amr ["fed"] only, and cannot pass a required second factor.
	TrustUpstreamMFA bool
	// SAML reports whether the federation is a SAML 2.0 IdP, added by
	// [Provider.AddSAMLFederation]: Issuer is then its entity ID, and
	// ClientID empty.
	SAML bool
	// CreatedAt is when it was added.
	CreatedAt time.Time
}

// federationAAD binds a sealed client secret to its federation.
func federationAAD(id string) []byte { return []byte("idp:federation:" + id) }

// FederationRedirectURI returns the callback to register at every
// federation's provider: {issuer}/federation/callback.
func (p *Provider) FederationRedirectURI() string {
	return strings.TrimSuffix(p.cfg.Issuer, "/") + federationCallbackPath
}

// AddFederation stores f with a new id, which it returns, and its domains.
// Returns EValidation if a field is missing or malformed, EConflict if a
// domain belongs to another federation.
func (p *Provider) AddFederation(ctx context.Context, f Federation) (id string, err error) {
	defer wrap(&err, "AddFederation")
	if err := p.checkFederation(&f); err != nil {
		return "", err
	}
	now := p.now()
	id = feedback.NewIDAt(now)
	return id, p.insertFederation(ctx, federationRow{id: id, name: f.Name, issuer: f.Issuer, clientID: f.ClientID,
		secret: []byte(f.ClientSecret), trust: f.TrustUpstreamMFA, kind: "oidc", domains: f.Domains}, now)
}

// federationRow is a federation as idp_federations stores it.
type federationRow struct {
	id, name, issuer, clientID string
	secret                     []byte // sealed here with the federation's AAD
	trust                      bool
	kind, samlMetadata         string
	domains                    []string
}

// insertFederation stores a federation with its domains, in one
// transaction; a domain of another federation is feedback.EConflict.
func (p *Provider) insertFederation(ctx context.Context, r federationRow, now time.Time) error {
	err := p.cfg.DB.InTx(ctx, func(tx sqlstore.Conn) error {
		_, err := tx.Exec(ctx, `INSERT INTO idp_federations (id, name, issuer, client_id, client_secret,
			trust_upstream_mfa, created_at, kind, saml_metadata) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			r.id, r.name, r.issuer, r.clientID, p.cfg.Keys.Seal(r.secret, federationAAD(r.id)), r.trust, now,
			r.kind, r.samlMetadata)
		for _, d := range r.domains {
			if err == nil {
				_, err = tx.Exec(ctx, `INSERT INTO idp_federation_domains (domain, federation_id) VALUES ($1, $2)`, d, r.id)
			}
		}
		return err
	})
	if errors.Is(err, sqlstore.ErrUnique) {
		return feedback.Errorf(feedback.EConflict, "A domain of this federation belongs to another one already.")
	}
	return err
}

// checkFederation normalises f and returns an EValidation error for the
// first thing wrong with it.
func (p *Provider) checkFederation(f *Federation) error {
	f.Name, f.Issuer = strings.TrimSpace(f.Name), strings.TrimSpace(f.Issuer)
	f.ClientID, f.Domains = strings.TrimSpace(f.ClientID), slices.Clone(f.Domains)
	for i, d := range f.Domains {
		f.Domains[i] = strings.TrimPrefix(normalizeEmail(d), "@")
	}
	slices.Sort(f.Domains)
	f.Domains = slices.Compact(f.Domains)
	u, err := url.Parse(f.Issuer)
	switch {
	case f.Name == "" || len(f.Name) > 100:
		return feedback.Errorf(feedback.EValidation, "A federation needs a name of at most 100 characters.")
	case err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" ||
		(u.Scheme != "https" && !(p.cfg.Insecure && u.Scheme == "http")):
		return feedback.Errorf(feedback.EValidation, "The issuer must be an https URL without query.")
	case f.ClientID == "" || f.ClientSecret == "":
		return feedback.Errorf(feedback.EValidation, "A federation needs a client id and a client secret.")
	case len(f.Domains) == 0:
		return feedback.Errorf(feedback.EValidation, "A federation needs at least one email domain.")
	}
	for _, d := range f.Domains {
		if !feedback.ValidEmail("x@" + d) {
			return feedback.Errorf(feedback.EValidation, "%q is not an email domain.", d)
		}
	}
	return nil
}

// Federations returns the federations, oldest first, without their
// client secrets.
func (p *Provider) Federations(ctx context.Context) (_ []Federation, err error) {
	defer wrap(&err, "Federations")
	fs, err := p.queryFederations(ctx, "")
	for i := range fs {
		fs[i].ClientSecret = ""
	}
	return fs, err
}

// RemoveFederation deletes the federation id and its sign-ins in
// progress. The accounts it made stay: they sign in again only through a
// set-password link, or a federation that serves their domain. Returns
// ENotFound if there is no such federation.
func (p *Provider) RemoveFederation(ctx context.Context, id string) (err error) {
	defer wrap(&err, "RemoveFederation")
	if _, ok := feedback.ParseUUID(id); !ok {
		return errNoFederation
	}
	n, err := p.cfg.DB.Exec(ctx, `DELETE FROM idp_federations WHERE id = $1`, id)
	if err == nil && n == 0 {
		err = errNoFederation
	}
	return err
}

var errNoFederation = feedback.Errorf(feedback.ENotFound, "There is no such federation.")

// federationByID returns the federation id, secret opened, or errNotFound.
func (p *Provider) federationByID(ctx context.Context, id string) (*Federation, error) {
	if _, ok := feedback.ParseUUID(id); !ok {
		return nil, errNotFound
	}
	return p.oneFederation(ctx, `WHERE f.id = $1`, id)
}

// federationOf returns the federation of email's domain, or errNotFound.
func (p *Provider) federationOf(ctx context.Context, email string) (*Federation, error) {
	_, domain, ok := strings.Cut(normalizeEmail(email), "@")
	if !ok || domain == "" {
		return nil, errNotFound
	}
	return p.oneFederation(ctx, `WHERE f.id = (SELECT federation_id FROM idp_federation_domains WHERE domain = $1)`,
		domain)
}

func (p *Provider) oneFederation(ctx context.Context, where string, args ...any) (*Federation, error) {
	fs, err := p.queryFederations(ctx, where, args...)
	switch {
	case err != nil:
		return nil, err
	case len(fs) == 0:
		return nil, errNotFound
	}
	return &fs[0], nil
}

// queryFederations returns the federations that the WHERE clause where
// selects ("" for all), oldest first, with their domains and opened
// secrets.
func (p *Provider) queryFederations(ctx context.Context, where string, args ...any) ([]Federation, error) {
	rows, err := p.cfg.DB.Query(ctx, `SELECT f.id, f.name, f.issuer, f.client_id, f.client_secret,
		f.trust_upstream_mfa, f.created_at, f.kind, d.domain
		FROM idp_federations f JOIN idp_federation_domains d ON d.federation_id = f.id `+where+`
		ORDER BY f.created_at, f.id, d.domain`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var fs []Federation
	for rows.Next() {
		var f Federation
		var sealed []byte
		var kind, domain string
		if err := rows.Scan(&f.ID, &f.Name, &f.Issuer, &f.ClientID, &sealed, &f.TrustUpstreamMFA, at(&f.CreatedAt),
			&kind, &domain); err != nil {
			return nil, err
		}
		f.SAML = kind == "saml"
		if n := len(fs); n > 0 && fs[n-1].ID == f.ID {
			fs[n-1].Domains = append(fs[n-1].Domains, domain)
			continue
		}
		secret, err := p.cfg.Keys.Open(sealed, federationAAD(f.ID))
		if err != nil {
			return nil, err
		}
		f.ClientSecret, f.Domains = string(secret), []string{domain}
		fs = append(fs, f)
	}
	return fs, rows.Err()
}

// federationButton is a federation as the login page offers it.
type federationButton struct{ ID, Name string }

// federationButtons returns the login page's federations, oldest first.
func (p *Provider) federationButtons(ctx context.Context) (_ []federationButton, err error) {
	defer wrap(&err, "federationButtons")
	rows, err := p.cfg.DB.Query(ctx, `SELECT id, name FROM idp_federations ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var bs []federationButton
	for rows.Next() {
		var b federationButton
		if err := rows.Scan(&b.ID, &b.Name); err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	return bs, rows.Err()
}
