package client

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The calls of the dashboard's Account page: the signed-in user's
// password and authenticator app.

// Account returns how the signed-in user signs in.
func (c *Client) Account(ctx context.Context) (*feedback.Account, error) {
	return call[feedback.Account](ctx, c, "GET", "/account", nil)
}

// ChangePassword changes the user's password; their other sessions end.
func (c *Client) ChangePassword(ctx context.Context, current, next string) (*feedback.PasswordChanged, error) {
	return call[feedback.PasswordChanged](ctx, c, "POST", "/account/password",
		feedback.PasswordChange{CurrentPassword: current, NewPassword: next})
}

// BeginTOTP starts enrolling an authenticator app: the secret to confirm.
func (c *Client) BeginTOTP(ctx context.Context) (*feedback.TOTPEnrolment, error) {
	return call[feedback.TOTPEnrolment](ctx, c, "POST", "/account/totp", nil)
}

// ConfirmTOTP confirms the app with its current code.
func (c *Client) ConfirmTOTP(ctx context.Context, code string) error {
	_, err := c.Do(ctx, "POST", c.api("/account/totp/confirm"), feedback.TOTPCode{Code: code}, nil)
	return err
}

// RemoveTOTP removes the app, once password is checked.
func (c *Client) RemoveTOTP(ctx context.Context, password string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/account/totp"), feedback.PasswordCheck{Password: password}, nil)
	return err
}
