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

// Federation is an organisation's own identity provider, which signs in
// the addresses of its email domains: the login page sends them there,
// and refuses their passwords.
type Federation struct {
	ID string // made by [Provider.AddFederation]
	// Name is shown on the sign-in button: "Sign in with Name".
	Name string
	// Kind is KindOIDC (the default) or KindSAML; a [Federator] of the
	// kind serves it.
	Kind string
	// Issuer is an OpenID provider's issuer URL, whose discovery document
	// names the endpoints; or a SAML IdP's entity ID, which
	// [Provider.AddFederation] reads from its metadata.
	Issuer string
	// ClientID and ClientSecret are the provider's registration at an
	// OpenID provider, whose redirect URI is oidcfed.RedirectURI. The
	// secret is sealed at rest; [Provider.Federations] leaves it empty.
	ClientID, ClientSecret string
	// SAMLMetadata is a SAML IdP's metadata: its entity ID, its single
	// sign-on service (HTTP-Redirect binding) and its signing
	// certificates.
	SAMLMetadata string
	// SAMLMetadataURL, when SAMLMetadata is empty, is where
	// [Provider.AddFederation] fetches a SAML IdP's metadata, once: a
	// new certificate needs the federation removed and added again.
	SAMLMetadataURL string
	// Domains are the email domains the federation signs in, e.g.
	// "example.com", in lower case.
	Domains []string
	// TrustUpstreamMFA counts a second factor that the upstream reports
	// (amr of an ID token, a SAML AuthnContextClassRef); otherwise a
	// federated sign-in has amr ["fed"] only, and cannot pass a required
	// second factor.
	TrustUpstreamMFA bool
	// CreatedAt is when it was added.
	CreatedAt time.Time
}

// Serves returns email normalised (trimmed, in lower case) and reports
// whether it is an address of one of f's domains: a federation's
// provider speaks only for its own domains, so that it cannot sign in
// the accounts of others.
func (f *Federation) Serves(email string) (string, bool) {
	email = normalizeEmail(email)
	_, domain, _ := strings.Cut(email, "@")
	return email, feedback.ValidEmail(email) && slices.Contains(f.Domains, domain)
}

// federationAAD binds a sealed client secret to its federation.
func federationAAD(id string) []byte { return []byte("idp:federation:" + id) }

// AddFederation stores f with a new id, which it returns, and its
// domains; the [Federator] of its kind prepares it first (a SAML IdP's
// metadata is read). Returns EValidation if a field is missing or
// malformed, or no federator serves its kind, EConflict if a domain
// belongs to another federation.
func (p *Provider) AddFederation(ctx context.Context, f Federation) (id string, err error) {
	defer wrap(&err, "AddFederation")
	if f.Kind == "" {
		f.Kind = KindOIDC
	}
	fr, ok := p.federators[f.Kind]
	if !ok {
		return "", feedback.Errorf(feedback.EValidation, "This provider signs in through no federation of kind %q.", f.Kind)
	}
	if pr, ok := fr.(Preparer); ok {
		if err := pr.Prepare(ctx, &f); err != nil {
			return "", err
		}
	}
	if err := p.checkFederation(&f); err != nil {
		return "", err
	}
	now := p.now()
	id = feedback.NewIDAt(now)
	return id, p.cfg.Store.CreateIdPFederation(ctx, &server.IdPFederation{ID: id, Name: f.Name, Kind: f.Kind,
		Issuer: f.Issuer, ClientID: f.ClientID, ClientSecret: p.cfg.Keys.Seal([]byte(f.ClientSecret), federationAAD(id)),
		TrustUpstreamMFA: f.TrustUpstreamMFA, SAMLMetadata: f.SAMLMetadata, Domains: f.Domains, CreatedAt: now})
}

// checkFederation normalises f and returns an EValidation error for the
// first thing wrong with it: its name, an OpenID federation's issuer and
// client, its domains.
func (p *Provider) checkFederation(f *Federation) error {
	f.Name, f.Issuer = strings.TrimSpace(f.Name), strings.TrimSpace(f.Issuer)
	f.ClientID, f.Domains = strings.TrimSpace(f.ClientID), slices.Clone(f.Domains)
	for i, d := range f.Domains {
		f.Domains[i] = strings.TrimPrefix(normalizeEmail(d), "@")
	}
	slices.Sort(f.Domains)
	f.Domains = slices.Compact(f.Domains)
	if f.Name == "" || len(f.Name) > 100 {
		return feedback.Errorf(feedback.EValidation, "A federation needs a name of at most 100 characters.")
	}
	if f.Kind == KindOIDC {
		if err := p.checkOpenID(f); err != nil {
			return err
		}
	}
	if len(f.Domains) == 0 {
		return feedback.Errorf(feedback.EValidation, "A federation needs at least one email domain.")
	}
	for _, d := range f.Domains {
		if !feedback.ValidEmail("x@" + d) {
			return feedback.Errorf(feedback.EValidation, "%q is not an email domain.", d)
		}
	}
	return nil
}

// checkOpenID returns an EValidation error for an OpenID federation's
// issuer that is not an https URL (or http when the provider is
// Insecure), or a missing client registration.
func (p *Provider) checkOpenID(f *Federation) error {
	u, err := url.Parse(f.Issuer)
	switch {
	case err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" ||
		(u.Scheme != "https" && !(p.cfg.Insecure && u.Scheme == "http")):
		return feedback.Errorf(feedback.EValidation, "The issuer must be an https URL without query.")
	case f.ClientID == "" || f.ClientSecret == "":
		return feedback.Errorf(feedback.EValidation, "A federation needs a client id and a client secret.")
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
	return &Federation{ID: f.ID, Name: f.Name, Kind: f.Kind, Issuer: f.Issuer, ClientID: f.ClientID,
		ClientSecret: string(secret), SAMLMetadata: f.SAMLMetadata, Domains: f.Domains,
		TrustUpstreamMFA: f.TrustUpstreamMFA, CreatedAt: f.CreatedAt}, nil
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
