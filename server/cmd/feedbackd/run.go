package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Main is the program: its subcommands share the setup code with the
// end-to-end tests, which run Main in process.
type Main struct {
	Stdout, Stderr io.Writer
	// Getenv reads the environment; tests replace it.
	Getenv func(string) string
	// Ready, when set, receives the listening address once serve listens.
	Ready chan<- string
}

// NewMain returns a Main that reads the process environment.
func NewMain() *Main {
	return &Main{Stdout: io.Discard, Stderr: io.Discard, Getenv: os.Getenv}
}

// Run runs the subcommand named by args[0] (serve when args is empty or
// starts with a flag). A request for help (-h, --help, help) prints the
// usage to stdout and is not an error.
func (m *Main) Run(ctx context.Context, args []string) error {
	err := m.run(ctx, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil // the flag set printed the command's flags
	}
	return err
}

func (m *Main) run(ctx context.Context, args []string) error {
	if len(args) > 0 && isHelp(args[0]) {
		return m.help()
	}
	if len(args) == 0 || (len(args[0]) > 0 && args[0][0] == '-') {
		return m.serve(ctx, args)
	}
	switch args[0] {
	case "serve":
		return m.serve(ctx, args[1:])
	case "migrate":
		return m.migrate(ctx, args[1:])
	case "workspace":
		return m.workspace(ctx, args[1:])
	case "token":
		return m.token(ctx, args[1:])
	case "demo":
		return m.demo(ctx, args[1:])
	case "user":
		return m.user(ctx, args[1:])
	case "federation":
		return m.federation(ctx, args[1:])
	}
	return fmt.Errorf("unknown command %q\n\n%s", args[0], usage)
}

const usage = `Usage: feedbackd [command] [flags]

Commands:
  serve                          run the service (the default)
  migrate                        apply database migrations
  workspace create --name NAME   create a workspace; prints its id
  token create --workspace ID --name NAME
                                 create an API token; prints it once
  token list --workspace ID      list a workspace's tokens
  token revoke --workspace ID TOKEN_ID
                                 revoke a token at once
  user create --email EMAIL      an account of the embedded identity provider;
                                 prints a one-time link to set its password
  federation add --name N --issuer URL --client-id ID --client-secret S --domain D[,D] [--trust-mfa]
                                 sign in an organisation's domains through its OpenID
                                 provider; prints its id and the redirect URI to register
  federation add --name N --saml-metadata FILE|--saml-metadata-url URL --domain D[,D] [--trust-mfa]
                                 the same through a SAML 2.0 IdP; prints its id, our SP
                                 metadata URL and the ACS URL to give the IdP
  federation list                list federations
  federation remove ID           remove a federation
  demo                           create a demo workspace; prints a token, URLs
                                 and a dashboard sign-in

Every command takes --db (DATABASE_URL) and --secret-key (FEEDBACK_SECRET_KEY).
Run "feedbackd COMMAND -h" for a command's flags; "feedbackd -h" prints this.
`

func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// help prints the commands, then the flags of serve, the default.
func (m *Main) help() error {
	fmt.Fprint(m.Stdout, usage)
	fmt.Fprintln(m.Stdout, "\nFlags of serve (each also read from the environment variable named):")
	fs := m.newFlags("serve")
	fs.SetOutput(m.Stdout)
	(&serveFlags{}).define(fs, m.Getenv)
	fs.PrintDefaults()
	return nil
}

// newFlags returns a flag set for a subcommand that writes its usage to
// the Main's stderr and returns errors instead of exiting.
func (m *Main) newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("feedbackd "+name, flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	return fs
}
