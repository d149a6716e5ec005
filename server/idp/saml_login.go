package idp

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	saml2 "github.com/russellhaering/gosaml2"
	"github.com/russellhaering/gosaml2/types"
	"golang.org/x/oauth2"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// samlSkew is the clock difference allowed with an IdP.
const samlSkew = 2 * time.Minute

// samlRequest is a sign-in sent to a SAML IdP: a row of idp_saml_requests.
type samlRequest struct {
	authRequestID, federationID, requestID string
}

// startSAML sends the browser of sign-in a to the IdP of f with an
// AuthnRequest (HTTP-Redirect binding). Its RelayState is stored (as a
// hash) with the request's ID, and set in a cookie that only the ACS
// reads: a response counts only in the browser that started it.
func (p *Provider) startSAML(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation, idp *samlIdP) {
	sp := p.serviceProvider(idp)
	doc, err := sp.BuildAuthRequestDocument()
	if err != nil {
		p.upstreamFailed(w, r, a.ID, f, err)
		return
	}
	relay := oauth2.GenerateVerifier()
	st := samlRequest{a.ID, f.ID, doc.Root().SelectAttrValue("ID", "")}
	if err := p.storeSAMLRequest(r.Context(), relay, st); err != nil {
		p.internalError(w, r, err)
		return
	}
	u, err := sp.BuildAuthURLRedirect(relay, doc)
	if err != nil {
		p.upstreamFailed(w, r, a.ID, f, err)
		return
	}
	http.SetCookie(w, p.relayCookie(relay, int(federationTTL/time.Second)))
	http.Redirect(w, r, u, http.StatusSeeOther)
}

// samlStarted sends the browser of sign-in a to f's IdP, and reports
// true, if f is a SAML federation.
func (p *Provider) samlStarted(w http.ResponseWriter, r *http.Request, a *authRequest, f *Federation) bool {
	if !f.SAML {
		return false
	}
	idp, err := p.samlIdPOf(r.Context(), f.ID)
	switch {
	case errors.Is(err, errNotFound):
		p.loginPage(w, r, http.StatusBadRequest, "This way of signing in is no longer available.")
	case err != nil:
		p.upstreamFailed(w, r, a.ID, f, err)
	default:
		p.startSAML(w, r, a, f, idp)
	}
	return true
}

// relayCookie returns the browser-binding cookie of relay. The IdP posts
// to the ACS from another site, so over https the cookie is
// SameSite=None; over http (Insecure, in development) browsers refuse
// None without Secure, and it has no SameSite.
func (p *Provider) relayCookie(relay string, maxAge int) *http.Cookie {
	secure := strings.HasPrefix(p.cfg.Issuer, "https:")
	c := &http.Cookie{Name: "idp_saml_" + hex.EncodeToString(secret.Hash(relay)[:6]), Value: relay,
		Path: p.prefix + samlACSPath, MaxAge: maxAge, HttpOnly: true, Secure: secure}
	if secure {
		c.SameSite = http.SameSiteNoneMode
	}
	return c
}

// storeSAMLRequest records st under the hash of relay.
func (p *Provider) storeSAMLRequest(ctx context.Context, relay string, st samlRequest) (err error) {
	defer wrap(&err, "storeSAMLRequest")
	now := p.now()
	return p.cfg.Store.CreateIdPSAMLRequest(ctx, &server.IdPSAMLRequest{RelayHash: secret.Hash(relay),
		AuthRequestID: st.authRequestID, FederationID: st.federationID, RequestID: st.requestID,
		ExpiresAt: now.Add(federationTTL)}, now)
}

// takeSAMLRequest returns the request of relay and deletes it (a
// RelayState counts once), or errNotFound.
func (p *Provider) takeSAMLRequest(ctx context.Context, relay string) (_ *samlRequest, err error) {
	defer wrap(&err, "takeSAMLRequest")
	row, err := p.cfg.Store.TakeIdPSAMLRequest(ctx, secret.Hash(relay), p.now())
	if err != nil {
		return nil, orNotFound(err)
	}
	return &samlRequest{row.AuthRequestID, row.FederationID, row.RequestID}, nil
}

// relayRequest returns the request that relay names, if the browser holds
// its cookie, or writes the page that says it has expired. The cookie is
// deleted either way.
func (p *Provider) relayRequest(w http.ResponseWriter, r *http.Request, relay string) (*samlRequest, bool) {
	return takeBound(p, w, r, relay, p.relayCookie(relay, -1), p.takeSAMLRequest)
}

// handleSAMLACS handles "POST /saml/acs" (SAMLResponse, RelayState): an
// IdP posts its response here. It checks the RelayState against the
// browser's cookie and the stored request, verifies the response, and
// completes the sign-in of the identity.
func (p *Provider) handleSAMLACS(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad request", http.StatusBadRequest)
		return
	}
	st, ok := p.relayRequest(w, r, r.PostForm.Get("RelayState"))
	if !ok {
		return
	}
	ctx := r.Context()
	a, err := p.authRequest(ctx, st.authRequestID)
	if err == nil && a.Done() {
		err = errNotFound
	}
	var f *Federation
	var idp *samlIdP
	if err == nil {
		f, err = p.federationByID(ctx, st.federationID)
	}
	if err == nil {
		idp, err = p.samlIdPOf(ctx, f.ID)
	}
	if err != nil {
		p.step(w, r, err, nil)
		return
	}
	id, err := p.samlIdentity(ctx, idp, f, st.requestID, r.PostForm.Get("SAMLResponse"))
	if err != nil {
		p.upstreamFailed(w, r, a.ID, f, err)
		return
	}
	p.finishFederated(w, r, a, f, id)
}

// samlIdentity verifies an encoded response of idp to the request
// requestID of f, records its assertion's ID against replays, and
// returns the identity it asserts.
func (p *Provider) samlIdentity(ctx context.Context, idp *samlIdP, f *Federation, requestID, encoded string) (*upstreamIdentity, error) {
	sp := p.serviceProvider(idp)
	resp, err := sp.ValidateEncodedResponse(encoded) // signature, issuer, destination, status
	if err != nil {
		return nil, fmt.Errorf("SAML response: %w", err)
	}
	if len(resp.Assertions) != 1 || len(resp.EncryptedAssertions) != 0 {
		return nil, errors.New("SAML response: not exactly one plain assertion")
	}
	// A signed assertion counts once, even when refused below.
	as := &resp.Assertions[0]
	if err := p.markAssertion(ctx, f.ID, as); err != nil {
		return nil, err
	}
	if err := p.checkAssertion(sp, resp, as, requestID); err != nil {
		return nil, err
	}
	return (&upstream{f: f}).identity(upstreamClaims{Email: assertedEmail(as), AMR: samlMethods(as)})
}

// checkAssertion checks what gosaml2 leaves to its caller: the response
// and its subject confirmation answer requestID at the ACS, the audience
// is this SP, and the conditions hold now (give or take samlSkew).
func (p *Provider) checkAssertion(sp *saml2.SAMLServiceProvider, resp *types.Response, as *types.Assertion, requestID string) error {
	if resp.Destination != sp.AssertionConsumerServiceURL || resp.InResponseTo != requestID || requestID == "" {
		return errors.New("SAML response: wrong destination or InResponseTo")
	}
	c := as.Conditions
	if c == nil || len(c.AudienceRestrictions) == 0 {
		return errors.New("SAML assertion: no audience restriction")
	}
	warn, err := sp.VerifyAssertionConditions(as)
	if err != nil {
		return fmt.Errorf("SAML assertion: %w", err)
	}
	if warn.NotInAudience {
		return errors.New("SAML assertion: not for this audience")
	}
	now := p.now()
	notBefore, err1 := time.Parse(time.RFC3339, c.NotBefore)
	notOnOrAfter, err2 := time.Parse(time.RFC3339, c.NotOnOrAfter)
	if err1 != nil || err2 != nil || now.Add(samlSkew).Before(notBefore) || !now.Add(-samlSkew).Before(notOnOrAfter) {
		return errors.New("SAML assertion: outside its validity")
	}
	if as.Subject == nil || as.Subject.SubjectConfirmation == nil || as.Subject.SubjectConfirmation.SubjectConfirmationData == nil {
		return errors.New("SAML assertion: no subject confirmation")
	}
	d := as.Subject.SubjectConfirmation.SubjectConfirmationData
	if d.InResponseTo != requestID || d.Recipient != sp.AssertionConsumerServiceURL {
		return errors.New("SAML assertion: subject confirmation of another request")
	}
	return nil
}

// markAssertion records the ID of as until it expires (then purge deletes
// it), or returns an error if it was recorded already: an assertion counts
// once.
func (p *Provider) markAssertion(ctx context.Context, federationID string, as *types.Assertion) (err error) {
	defer wrap(&err, "markAssertion")
	if as.ID == "" {
		return errors.New("SAML assertion without ID")
	}
	now := p.now()
	until := now.Add(federationTTL)
	if c := as.Conditions; c != nil {
		if t, err := time.Parse(time.RFC3339, c.NotOnOrAfter); err == nil && t.After(until) {
			until = t
		}
	}
	err = p.cfg.Store.AddIdPSAMLAssertion(ctx, federationID, as.ID, until.Add(samlSkew))
	if feedback.ErrorCode(err) == feedback.EConflict {
		return errors.New("SAML assertion replayed")
	}
	return err
}

// assertedEmail returns the NameID of as if it is an email address, or
// else its mail or email attribute.
func assertedEmail(as *types.Assertion) string {
	if as.Subject != nil && as.Subject.NameID != nil && as.Subject.NameID.Format == nameIDEmail {
		return as.Subject.NameID.Value
	}
	if as.AttributeStatement == nil {
		return ""
	}
	for _, a := range as.AttributeStatement.Attributes {
		switch strings.ToLower(a.Name) {
		case "mail", "email", "emailaddress", "urn:oid:0.9.2342.19200300.100.1.3",
			"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress":
			if len(a.Values) > 0 {
				return a.Values[0].Value
			}
		}
	}
	return ""
}

// mfaClasses are the AuthnContextClassRefs that name a second factor.
var mfaClasses = []string{"MobileTwoFactorContract", "MobileTwoFactorUnregistered", "TimeSyncToken",
	"Smartcard", "SmartcardPKI", "MultiFactor"}

// samlMethods returns the amr that as implies: ["mfa"] when its
// AuthnContextClassRef names a second factor, ["pwd"] for a password.
func samlMethods(as *types.Assertion) []string {
	s := as.AuthnStatement
	if s == nil || s.AuthnContext == nil || s.AuthnContext.AuthnContextClassRef == nil {
		return nil
	}
	ref := strings.TrimSpace(s.AuthnContext.AuthnContextClassRef.Value)
	class := ref[strings.LastIndex(ref, ":")+1:]
	for _, m := range mfaClasses {
		if class == m {
			return []string{"mfa"}
		}
	}
	if strings.HasPrefix(class, "Password") {
		return []string{"pwd"}
	}
	return nil
}
