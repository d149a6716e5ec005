package idp

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/server"
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

// federationRow is a federation as the store keeps it.
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
	return p.cfg.Store.CreateIdPFederation(ctx, &server.IdPFederation{ID: r.id, Name: r.name, Kind: r.kind,
		Issuer: r.issuer, ClientID: r.clientID, ClientSecret: p.cfg.Keys.Seal(r.secret, federationAAD(r.id)),
		TrustUpstreamMFA: r.trust, SAMLMetadata: r.samlMetadata, Domains: r.domains, CreatedAt: now})
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
	rows, err := p.cfg.Store.IdPFederations(ctx)
	if err != nil {
		return nil, err
	}
	fs := make([]Federation, len(rows))
	for i := range rows {
		f, err := p.federation(&rows[i])
		if err != nil {
			return nil, err
		}
		fs[i], fs[i].ClientSecret = *f, ""
	}
	return fs, nil
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
	err = p.cfg.Store.DeleteIdPFederation(ctx, id)
	if errors.Is(orNotFound(err), errNotFound) {
		return errNoFederation
	}
	return err
}

var errNoFederation = feedback.Errorf(feedback.ENotFound, "There is no such federation.")

// federationByID returns the federation id, secret opened, or errNotFound.
func (p *Provider) federationByID(ctx context.Context, id string) (*Federation, error) {
	f, err := p.cfg.Store.IdPFederation(ctx, id)
	if err != nil {
		return nil, orNotFound(err)
	}
	return p.federation(f)
}

// federationOf returns the federation of email's domain, or errNotFound.
func (p *Provider) federationOf(ctx context.Context, email string) (*Federation, error) {
	_, domain, ok := strings.Cut(normalizeEmail(email), "@")
	if !ok || domain == "" {
		return nil, errNotFound
	}
	f, err := p.cfg.Store.IdPFederationByDomain(ctx, domain)
	if err != nil {
		return nil, orNotFound(err)
	}
	return p.federation(f)
}

// federation returns the federation of row f, its secret opened.
func (p *Provider) federation(f *server.IdPFederation) (*Federation, error) {
	secret, err := p.cfg.Keys.Open(f.ClientSecret, federationAAD(f.ID))
	if err != nil {
		return nil, err
	}
	return &Federation{ID: f.ID, Name: f.Name, Issuer: f.Issuer, ClientID: f.ClientID, ClientSecret: string(secret),
		Domains: f.Domains, TrustUpstreamMFA: f.TrustUpstreamMFA, SAML: f.Kind == "saml", CreatedAt: f.CreatedAt}, nil
}

// federationButton is a federation as the login page offers it.
type federationButton struct{ ID, Name string }

// federationButtons returns the login page's federations, oldest first.
func (p *Provider) federationButtons(ctx context.Context) (_ []federationButton, err error) {
	defer wrap(&err, "federationButtons")
	fs, err := p.cfg.Store.IdPFederations(ctx)
	bs := make([]federationButton, len(fs))
	for i, f := range fs {
		bs[i] = federationButton{f.ID, f.Name}
	}
	return bs, err
}
