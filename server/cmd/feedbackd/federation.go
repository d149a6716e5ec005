package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/idp/oidcfed"
	"github.com/feedbackhq/feedback/server/idp/samlfed"
	"github.com/feedbackhq/feedback/server/secret"
)

const federationUsage = `usage:
  feedbackd federation add --name NAME --issuer URL --client-id ID --client-secret SECRET
                           --domain example.com[,other.org] [--trust-mfa]
  feedbackd federation add --name NAME (--saml-metadata FILE | --saml-metadata-url URL)
                           --domain example.com[,other.org] [--trust-mfa]
  feedbackd federation list
  feedbackd federation remove ID`

// federation handles "feedbackd federation add|list|remove": the
// organisations' OpenID providers that the embedded provider signs in
// through.
func (m *Main) federation(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(federationUsage)
	}
	switch args[0] {
	case "add":
		return m.federationAdd(ctx, args[1:])
	case "list":
		return m.federationList(ctx, args[1:])
	case "remove":
		return m.federationRemove(ctx, args[1:])
	}
	return fmt.Errorf("federation: unknown subcommand %q\n%s", args[0], federationUsage)
}

// federationFlags are the flags of every federation subcommand.
type federationFlags struct {
	db      dbFlags
	baseURL string
}

func (m *Main) federationFlags(name string) (*flag.FlagSet, *federationFlags) {
	var f federationFlags
	fs := m.newFlags("federation " + name)
	f.db.register(fs, m.Getenv)
	fs.StringVar(&f.baseURL, "base-url", envOr(m.Getenv, "FEEDBACK_BASE_URL", "http://localhost:8080"),
		"public URL of the service: the embedded provider is at {base-url}/idp (env FEEDBACK_BASE_URL)")
	return fs, &f
}

// withProvider opens the store and the embedded provider, and runs fn.
func (m *Main) withProvider(ctx context.Context, f *federationFlags, fn func(*idp.Provider) error) error {
	return m.withStore(ctx, f.db, func(store server.Store, keys *secret.Keyring) error {
		p, _, err := embeddedProvider(ctx, store, keys, f.baseURL, slog.New(slog.NewTextHandler(m.Stderr, nil)))
		if err != nil {
			return err
		}
		return fn(p)
	})
}

// federationAdd handles "feedbackd federation add": it prints the new
// federation's id, and the redirect URI to register at its provider.
func (m *Main) federationAdd(ctx context.Context, args []string) error {
	fs, flags := m.federationFlags("add")
	var fed idp.Federation
	var domains string
	fs.StringVar(&fed.Name, "name", "", "shown on the sign-in button: Sign in with NAME (required)")
	fs.StringVar(&fed.Issuer, "issuer", "", "the organisation's OpenID provider's issuer URL (required)")
	fs.StringVar(&fed.ClientID, "client-id", "", "our client id at that provider (required)")
	fs.StringVar(&fed.ClientSecret, "client-secret", "", "our client secret at that provider (required; sealed at rest)")
	fs.StringVar(&domains, "domain", "", "comma-separated email domains it signs in, e.g. example.com (required)")
	fs.BoolVar(&fed.TrustUpstreamMFA, "trust-mfa", false,
		"take amr from the provider's ID tokens, so that its second factor counts for required MFA")
	var metadataFile string
	fs.StringVar(&metadataFile, "saml-metadata", "", "a SAML 2.0 IdP instead: the file of its metadata XML")
	fs.StringVar(&fed.SAMLMetadataURL, "saml-metadata-url", "", "a SAML 2.0 IdP instead: the https URL of its metadata")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New("federation add: no arguments are taken\n" + federationUsage)
	}
	for _, d := range strings.Split(domains, ",") {
		if d = strings.TrimSpace(d); d != "" {
			fed.Domains = append(fed.Domains, d)
		}
	}
	if metadataFile != "" || fed.SAMLMetadataURL != "" {
		return m.addSAML(ctx, flags, fed, metadataFile)
	}
	return m.withProvider(ctx, flags, func(p *idp.Provider) error {
		id, err := p.AddFederation(ctx, fed)
		if err != nil {
			return err
		}
		fmt.Fprintln(m.Stdout, id)
		fmt.Fprintln(m.Stdout, "redirect URI to register at the provider:", oidcfed.RedirectURI(p.Issuer()))
		return nil
	})
}

// addSAML adds fed as a SAML 2.0 federation, whose metadata is in
// metadataFile or at fed.SAMLMetadataURL, and prints its id and what to
// give the IdP: our SP metadata (also our entity ID) and ACS.
func (m *Main) addSAML(ctx context.Context, flags *federationFlags, fed idp.Federation, metadataFile string) error {
	fed.Kind = idp.KindSAML
	if metadataFile != "" {
		b, err := os.ReadFile(metadataFile)
		if err != nil {
			return fmt.Errorf("federation add: %w", err)
		}
		fed.SAMLMetadata = string(b)
	}
	return m.withProvider(ctx, flags, func(p *idp.Provider) error {
		id, err := p.AddFederation(ctx, fed)
		if err != nil {
			return err
		}
		fmt.Fprintln(m.Stdout, id)
		fmt.Fprintln(m.Stdout, "SP entity ID and metadata to give the IdP:", samlfed.MetadataURL(p.Issuer()))
		fmt.Fprintln(m.Stdout, "assertion consumer service (HTTP-POST):", samlfed.ACSURL(p.Issuer()))
		return nil
	})
}

// federationList handles "feedbackd federation list".
func (m *Main) federationList(ctx context.Context, args []string) error {
	fs, flags := m.federationFlags("list")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New("federation list: no arguments are taken")
	}
	return m.withProvider(ctx, flags, func(p *idp.Provider) error {
		feds, err := p.Federations(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKIND\tNAME\tISSUER\tCLIENT ID\tDOMAINS\tTRUST MFA\tCREATED")
		for _, f := range feds {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%t\t%s\n", f.ID, f.Kind, f.Name, f.Issuer, f.ClientID,
				strings.Join(f.Domains, ","), f.TrustUpstreamMFA, f.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()
	})
}

// federationRemove handles "feedbackd federation remove ID"; the id may
// come before or after the flags.
func (m *Main) federationRemove(ctx context.Context, args []string) error {
	fs, flags := m.federationFlags("remove")
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if id == "" && fs.NArg() == 1 {
		id = fs.Arg(0)
	} else if fs.NArg() > 0 {
		id = ""
	}
	if id == "" {
		return errors.New("federation remove: give one federation ID\n" + federationUsage)
	}
	return m.withProvider(ctx, flags, func(p *idp.Provider) error {
		if err := p.RemoveFederation(ctx, id); err != nil {
			return err
		}
		fmt.Fprintln(m.Stderr, "federation", id, "removed")
		return nil
	})
}
