package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/feedbackhq/feedback/server/http/request"
	"github.com/feedbackhq/feedback/server/http/response"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/idp/oidcfed"
	"github.com/feedbackhq/feedback/server/idp/samlfed"
	"github.com/feedbackhq/feedback/server/webhook"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// Federations keeps the embedded provider's identity federations:
// *idp.Provider, whose methods "feedbackd federation" uses too.
type Federations interface {
	// AddFederation stores f and returns its id. Returns EValidation,
	// or EConflict if a domain belongs to another federation.
	AddFederation(ctx context.Context, f idp.Federation) (string, error)
	// Federations returns the federations without client secrets.
	Federations(ctx context.Context) ([]idp.Federation, error)
	// RemoveFederation deletes one. Returns ENotFound.
	RemoveFederation(ctx context.Context, id string) error
	// Issuer is the embedded provider's issuer URL.
	Issuer() string
}

var errNoFederations = feedback.Errorf(feedback.ENotFound,
	"This installation signs in through an external identity provider, which keeps its own federations.")

func (s *Server) registerFederationRoutes(r chi.Router) {
	r.Get("/federations", s.handle(s.handleFederations))
	r.Post("/federations", s.handle(s.handleFederationAdd))
	r.Delete("/federations/{id}", s.handle(s.handleFederationRemove))
}

// handleFederations handles "GET /federations": the embedded provider's
// federations, oldest first, without their client secrets.
func (s *Server) handleFederations(w http.ResponseWriter, r *http.Request) error {
	if err := request.NoQuery(r); err != nil {
		return err
	}
	if s.feds == nil {
		return errNoFederations
	}
	list, err := s.feds.Federations(r.Context())
	if err != nil {
		return err
	}
	out := make([]feedback.Federation, len(list))
	for i := range list {
		out[i] = s.federationView(&list[i])
	}
	return response.All(w, out)
}

// handleFederationAdd handles "POST /federations": it checks the input,
// reaches the provider (an OpenID provider's discovery document, a SAML
// IdP's metadata URL) through the webhooks' guard against private
// addresses, and stores the federation with its client secret sealed.
// The answer says what to register at the provider.
func (s *Server) handleFederationAdd(w http.ResponseWriter, r *http.Request) error {
	if s.feds == nil {
		return errNoFederations
	}
	var in feedback.FederationInput
	if err := request.DecodeJSON(w, r, &in, request.MaxJSONBody); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	if err := s.reachProvider(r.Context(), &in); err != nil {
		return err
	}
	f := idp.Federation{Name: in.Name, Kind: in.Kind, Issuer: in.Issuer, ClientID: in.ClientID,
		ClientSecret: in.ClientSecret, SAMLMetadata: in.SAMLMetadata, Domains: in.Domains, TrustUpstreamMFA: in.TrustMFA}
	id, err := s.feds.AddFederation(r.Context(), f)
	if err != nil { // the provider's checks: the metadata, an https issuer
		return atField(err, map[string]string{feedback.FederationOIDC: "issuer", feedback.FederationSAML: "saml_metadata"}[in.Kind])
	}
	list, err := s.feds.Federations(r.Context())
	if err != nil {
		return err
	}
	for i := range list {
		if list[i].ID == id {
			s.audit.Record(r, nil, feedback.AuditFederationAdded, "federation:"+id,
				map[string]string{"name": list[i].Name, "kind": list[i].Kind, "issuer": list[i].Issuer})
			return response.JSON(w, http.StatusCreated, s.federationView(&list[i]))
		}
	}
	return errNoFederation
}

var errNoFederation = feedback.Errorf(feedback.ENotFound, "There is no such federation.")

// reachProvider checks where in's provider is, as webhook URLs are
// checked, and reads it with a client that checks again at connect
// time: an OpenID provider's discovery document, a SAML IdP's metadata
// (which it keeps in in, so the provider does not fetch it again).
func (s *Server) reachProvider(ctx context.Context, in *feedback.FederationInput) error {
	field, raw := "issuer", in.Issuer
	if in.Kind == feedback.FederationSAML {
		if in.SAMLMetadataURL == "" {
			return nil
		}
		field, raw = "saml_metadata_url", in.SAMLMetadataURL
	}
	if err := s.policy.CheckURL(ctx, raw); err != nil {
		return atField(err, field)
	}
	client := webhook.NewClient(s.policy)
	if in.Kind == feedback.FederationSAML {
		md, err := samlfed.FetchMetadata(ctx, client, raw, true)
		in.SAMLMetadata, in.SAMLMetadataURL = md, ""
		return atField(err, field)
	}
	return atField(oidcfed.Discover(ctx, client, in.Issuer), field)
}

// atField names field as the invalid parameter of a validation error
// (a URL that the webhook policy refused, a provider that did not
// answer, metadata that does not parse), in a new error, as err may be
// shared.
func atField(err error, field string) error {
	var e *feedback.Error
	if !errors.As(err, &e) || e.Code != feedback.EValidation {
		return err
	}
	if len(e.Params) > 0 {
		var v feedback.Validator
		v.Add(field, e.Params[0].Reason)
		return v.Err()
	}
	c := *e
	c.Params = []feedback.InvalidParam{{Name: field, Reason: "was refused: " + e.Message}}
	return &c
}

// handleFederationRemove handles "DELETE /federations/{id}": the
// addresses of its domains sign in through it no more.
func (s *Server) handleFederationRemove(w http.ResponseWriter, r *http.Request) error {
	if s.feds == nil {
		return errNoFederations
	}
	id, err := request.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.feds.RemoveFederation(r.Context(), id); err != nil {
		return err
	}
	s.audit.Record(r, nil, feedback.AuditFederationRemoved, "federation:"+id, nil)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// federationView is f as the API answers it, with what to register at
// its provider.
func (s *Server) federationView(f *idp.Federation) feedback.Federation {
	v := feedback.Federation{ID: f.ID, Name: f.Name, Kind: f.Kind, Issuer: f.Issuer, ClientID: f.ClientID,
		Domains: f.Domains, TrustMFA: f.TrustUpstreamMFA, CreatedAt: feedback.NewTime(f.CreatedAt)}
	if f.Kind == idp.KindSAML {
		v.SPMetadataURL, v.ACSURL = samlfed.MetadataURL(s.feds.Issuer()), samlfed.ACSURL(s.feds.Issuer())
	} else {
		v.RedirectURI = oidcfed.RedirectURI(s.feds.Issuer())
	}
	return v
}
