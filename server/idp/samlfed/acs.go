package samlfed

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
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// samlSkew is the clock difference allowed with an IdP.
const samlSkew = 2 * time.Minute

// requestTTL is how long a sign-in may stay at an IdP.
const requestTTL = 10 * time.Minute

// request is a sign-in sent to a SAML IdP, as the ACS finds it.
type request struct {
	signInID, federationID, requestID string
}

// Start sends the browser of sign-in s to the IdP of f with an
// AuthnRequest (HTTP-Redirect binding). Its RelayState is stored (as a
// hash) with the request's ID, and set in a cookie that only the ACS
// reads: a response counts only in the browser that started it.
func (fr *federator) Start(w http.ResponseWriter, r *http.Request, s *idp.SignIn, f *idp.Federation, _ string) {
	md, err := parseMetadata(f.SAMLMetadata)
	if err != nil {
		fr.h.Fail(w, r, s, f, err)
		return
	}
	sp := fr.serviceProvider(md)
	doc, err := sp.BuildAuthRequestDocument()
	if err != nil {
		fr.h.Fail(w, r, s, f, err)
		return
	}
	relay := oauth2.GenerateVerifier()
	if err := fr.storeRequest(r.Context(), relay, request{s.ID(), f.ID, doc.Root().SelectAttrValue("ID", "")}); err != nil {
		fr.h.Error(w, r, err)
		return
	}
	u, err := sp.BuildAuthURLRedirect(relay, doc)
	if err != nil {
		fr.h.Fail(w, r, s, f, err)
		return
	}
	http.SetCookie(w, fr.relayCookie(relay, int(requestTTL/time.Second)))
	http.Redirect(w, r, u, http.StatusSeeOther)
}

// relayCookie returns the browser-binding cookie of relay. The IdP posts
// to the ACS from another site, so over https the cookie is
// SameSite=None; over http (Insecure, in development) browsers refuse
// None without Secure, and it has no SameSite.
func (fr *federator) relayCookie(relay string, maxAge int) *http.Cookie {
	secure := fr.env.Secure()
	c := &http.Cookie{Name: "idp_saml_" + hex.EncodeToString(secret.Hash(relay)[:6]), Value: relay,
		Path: fr.env.Prefix + ACSPath, MaxAge: maxAge, HttpOnly: true, Secure: secure}
	if secure {
		c.SameSite = http.SameSiteNoneMode
	}
	return c
}

// storeRequest records st under the hash of relay.
func (fr *federator) storeRequest(ctx context.Context, relay string, st request) error {
	now := fr.env.Now()
	return fr.env.Store.CreateIdPSAMLRequest(ctx, &server.IdPSAMLRequest{RelayHash: secret.Hash(relay),
		AuthRequestID: st.signInID, FederationID: st.federationID, RequestID: st.requestID,
		ExpiresAt: now.Add(requestTTL)}, now)
}

// handleACS handles "POST /saml/acs" (SAMLResponse, RelayState): an IdP
// posts its response here. It checks the RelayState against the
// browser's cookie and the stored request, verifies the response, and
// has the provider finish the sign-in of the identity.
func (fr *federator) handleACS(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad request", http.StatusBadRequest)
		return
	}
	ctx, relay := r.Context(), r.PostForm.Get("RelayState")
	if !idp.Bound(w, r, relay, fr.relayCookie(relay, -1)) {
		fr.h.Error(w, r, idp.ErrExpired)
		return
	}
	row, err := fr.env.Store.TakeIdPSAMLRequest(ctx, secret.Hash(relay), fr.env.Now()) // a RelayState counts once
	if err != nil {
		fr.h.Error(w, r, err)
		return
	}
	s, f, ok := fr.h.Resume(w, r, row.AuthRequestID, row.FederationID)
	if !ok {
		return
	}
	md, err := fr.metadataOf(f)
	if err != nil {
		fr.h.Error(w, r, err)
		return
	}
	id, err := fr.identity(ctx, md, f, row.RequestID, r.PostForm.Get("SAMLResponse"))
	if err != nil {
		fr.h.Fail(w, r, s, f, err)
		return
	}
	fr.h.Finish(w, r, s, f, *id)
}

// metadataOf returns the IdP of f, or idp.ErrExpired when f is no SAML
// federation.
func (fr *federator) metadataOf(f *idp.Federation) (*metadata, error) {
	if f.Kind != idp.KindSAML {
		return nil, idp.ErrExpired
	}
	return parseMetadata(f.SAMLMetadata)
}

// identity verifies an encoded response of md's IdP to the request
// requestID of f, records its assertion's ID against replays, and
// returns the identity it asserts.
func (fr *federator) identity(ctx context.Context, md *metadata, f *idp.Federation, requestID, encoded string) (*idp.Identity, error) {
	sp := fr.serviceProvider(md)
	resp, err := sp.ValidateEncodedResponse(encoded) // signature, issuer, destination, status
	if err != nil {
		return nil, fmt.Errorf("SAML response: %w", err)
	}
	if len(resp.Assertions) != 1 || len(resp.EncryptedAssertions) != 0 {
		return nil, errors.New("SAML response: not exactly one plain assertion")
	}
	// A signed assertion counts once, even when refused below.
	as := &resp.Assertions[0]
	if err := fr.markAssertion(ctx, f.ID, as); err != nil {
		return nil, err
	}
	if err := fr.checkAssertion(sp, resp, as, requestID); err != nil {
		return nil, err
	}
	return &idp.Identity{Email: assertedEmail(as), AMR: samlMethods(as)}, nil
}

// checkAssertion checks what gosaml2 leaves to its caller: the response
// and its subject confirmation answer requestID at the ACS, the audience
// is this SP, and the conditions hold now (give or take samlSkew).
func (fr *federator) checkAssertion(sp *saml2.SAMLServiceProvider, resp *types.Response, as *types.Assertion, requestID string) error {
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
	now := fr.env.Now()
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
func (fr *federator) markAssertion(ctx context.Context, federationID string, as *types.Assertion) error {
	if as.ID == "" {
		return errors.New("SAML assertion without ID")
	}
	now := fr.env.Now()
	until := now.Add(requestTTL)
	if c := as.Conditions; c != nil {
		if t, err := time.Parse(time.RFC3339, c.NotOnOrAfter); err == nil && t.After(until) {
			until = t
		}
	}
	err := fr.env.Store.AddIdPSAMLAssertion(ctx, federationID, as.ID, until.Add(samlSkew))
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
