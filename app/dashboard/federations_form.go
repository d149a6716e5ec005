package dashboard

import (
	"context"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// federationForm is the form that adds a federation.
type federationForm struct {
	in      feedback.FederationInput
	domains string            // as typed: comma-separated
	busy    bool              // an add is under way
	errs    map[string]string // the service's reasons, by field
	msg     string            // why the last add failed
}

// add sends the form.
func (p *federationsPage) add(ctx app.Context, e app.Event) {
	e.PreventDefault()
	f := &p.form
	if f.busy {
		return
	}
	in := f.in
	if in.Kind == "" {
		in.Kind = feedback.FederationOIDC
	}
	in.Domains = nil
	for _, d := range strings.Split(f.domains, ",") {
		if d = strings.TrimSpace(d); d != "" {
			in.Domains = append(in.Domains, d)
		}
	}
	f.busy, f.errs, f.msg, p.notice = true, nil, "", ""
	p.async(func(c context.Context) func(app.Context) {
		fed, err := api.AddFederation(c, in)
		return func(ctx app.Context) {
			f.busy = false
			if err != nil {
				p.Shell.refusedForm(ctx, err, "The federation was not added: ", "federation-problem", &f.errs, &f.msg)
				return
			}
			for _, id := range append([]string{"fed-name", "fed-domains"}, kindFields...) {
				clearInput(id)
			}
			if el := app.Window().GetElementByID("fed-trust-mfa"); el.Truthy() {
				el.Set("checked", false)
			}
			p.form = federationForm{in: feedback.FederationInput{Kind: in.Kind}}
			p.added(ctx, fed)
		}
	})
}

// renderForm is the form that adds a federation of the kind chosen.
func (p *federationsPage) renderForm() app.UI {
	f := &p.form
	saml := f.in.Kind == feedback.FederationSAML
	b := app.Button().ID("add-federation").Type("submit").Class("primary", "inline").Text("Add the federation")
	if f.busy {
		b = b.Disabled(true).Text("Checking the provider…")
	}
	return app.Form().ID("new-federation-form").Class("create-form").Aria("labelledby", "add-federation-title").OnSubmit(p.add).Body(
		app.H2().ID("add-federation-title").Text("Add a federation"),
		problemBox("federation-problem", f.msg),
		p.renderKind(saml),
		field("fed-name", "Name", "Shown on the sign-in button: “Sign in with” the name.", f.errs["name"],
			feedback.MaxFederationName, func(v string) { f.in.Name = v }),
		app.If(saml, p.samlFields).Else(p.openIDFields),
		field("fed-domains", "Email domains", "Comma-separated, for example: example.com, example.org.", f.errs["domains"],
			feedback.MaxFederationURL, func(v string) { f.domains = v }),
		p.renderTrust(),
		b,
	)
}

// renderKind is the choice between an OpenID provider and a SAML IdP.
func (p *federationsPage) renderKind(saml bool) app.UI {
	radio := func(id, kind, label string, checked bool) app.UI {
		in := app.Input().Type("radio").ID(id).Name("fed-kind").Value(kind).
			OnChange(func(ctx app.Context, e app.Event) { p.switchKind(kind) }, app.EventScope(kind))
		if checked {
			in = in.Checked(true)
		}
		return app.Div().Class("check").Body(in, app.Label().For(id).Text(label))
	}
	return app.FieldSet().Body(
		app.Legend().Text("Kind"),
		radio("fed-kind-oidc", feedback.FederationOIDC, "OpenID Connect provider", !saml),
		radio("fed-kind-saml", feedback.FederationSAML, "SAML 2.0 identity provider", saml),
	)
}

// kindFields are the inputs of one kind or the other.
var kindFields = []string{"fed-issuer", "fed-client-id", "fed-client-secret", "fed-metadata-url", "fed-metadata"}

// switchKind shows the fields of kind, empty: go-app reuses the inputs
// in place (GOAPP.md section 6), which would keep what was typed into
// the other kind's.
func (p *federationsPage) switchKind(kind string) {
	for _, id := range kindFields {
		clearInput(id)
	}
	in := &p.form.in
	in.Kind, in.Issuer, in.ClientID, in.ClientSecret, in.SAMLMetadata, in.SAMLMetadataURL = kind, "", "", "", "", ""
	p.form.errs = nil
}

func (p *federationsPage) openIDFields() app.UI {
	f := &p.form
	return app.Div().Body(
		field("fed-issuer", "Issuer URL", "The provider's issuer, for example https://login.example.com. Its discovery document is read now.",
			f.errs["issuer"], feedback.MaxFederationURL, func(v string) { f.in.Issuer = v }),
		field("fed-client-id", "Client ID", "Our client at the provider.", f.errs["client_id"], feedback.MaxFederationURL,
			func(v string) { f.in.ClientID = v }),
		clientSecretField("fed-client-secret", f.errs["client_secret"], func(v string) { f.in.ClientSecret = v }),
	)
}

func (p *federationsPage) samlFields() app.UI {
	f := &p.form
	reason := f.errs["saml_metadata"]
	if reason == "" {
		reason = f.errs["issuer"]
	}
	area := app.Textarea().ID("fed-metadata").Rows(4).Aria("describedby", "fed-metadata-hint").
		OnInput(func(ctx app.Context, e app.Event) { f.in.SAMLMetadata = ctx.JSSrc().Get("value").String() })
	if reason != "" {
		area = area.Aria("invalid", "true").Aria("describedby", "fed-metadata-hint fed-metadata-error")
	}
	return app.Div().Body(
		field("fed-metadata-url", "Metadata URL", "Where the IdP publishes its metadata, fetched once now; or paste the metadata below.",
			f.errs["saml_metadata_url"], feedback.MaxFederationURL, func(v string) { f.in.SAMLMetadataURL = v }),
		app.Div().Class("field").Body(
			app.Label().For("fed-metadata").Text("Metadata XML"),
			app.P().ID("fed-metadata-hint").Class("hint").Text("The IdP's EntityDescriptor, if you have no URL."),
			area,
			app.If(reason != "", func() app.UI {
				return app.P().ID("fed-metadata-error").Class("field-error").Text("The metadata " + reason + ".")
			}),
		),
	)
}

// clientSecretField is the client secret: written, never shown again.
func clientSecretField(id, reason string, onInput func(string)) app.UI {
	in := app.Input().Type("password").ID(id).Attr("autocomplete", "off").MaxLength(feedback.MaxFederationURL).
		Aria("describedby", id+"-hint").
		OnInput(func(ctx app.Context, e app.Event) { onInput(ctx.JSSrc().Get("value").String()) })
	if reason != "" {
		in = in.Aria("invalid", "true").Aria("describedby", id+"-hint "+id+"-error")
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text("Client secret"),
		app.P().ID(id+"-hint").Class("hint").Text("Stored encrypted; it is never shown again."),
		in,
		app.If(reason != "", func() app.UI {
			return app.P().ID(id + "-error").Class("field-error").Text("Client secret " + reason + ".")
		}),
	)
}

// renderTrust is whether the provider's second factor counts.
func (p *federationsPage) renderTrust() app.UI {
	in := app.Input().Type("checkbox").ID("fed-trust-mfa").
		OnChange(func(ctx app.Context, e app.Event) { p.form.in.TrustMFA = ctx.JSSrc().Get("checked").Bool() })
	if p.form.in.TrustMFA {
		in = in.Checked(true)
	}
	return app.Div().Class("check").Body(in, app.Label().For("fed-trust-mfa").Text("Trust the provider's second factor (MFA)"))
}
