package feedback

// Workspace is a tenant: every location, form, submission, token and
// webhook belongs to exactly one workspace.
type Workspace struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Slug      string `json:"slug"`
	CreatedAt Time   `json:"created_at"`
}

// APIToken describes an API token without its value, which is shown once
// at creation and stored only as a hash.
type APIToken struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Prefix     string `json:"prefix"`
	CreatedAt  Time   `json:"created_at"`
	LastUsedAt *Time  `json:"last_used_at"`
	RevokedAt  *Time  `json:"revoked_at"`
}

// NewAPIToken is the answer to POST /tokens: the token with its value,
// which no later request answers.
type NewAPIToken struct {
	APIToken
	Token string `json:"token"`
}

// TokenInput is the body of POST /tokens.
type TokenInput struct {
	Name string `json:"name"`
}
