package kiosk

import (
	"context"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// Device is what the kiosk needs from the browser and the network. The
// app provides it when it starts in the browser (see app/pwa); tests
// provide a fake.
type Device interface {
	// Load and Save keep the settings on the device.
	Load() *Settings
	Save(*Settings)
	// Pair consumes a pairing code at the server.
	Pair(ctx context.Context, code string) (*feedback.Pairing, error)
	// Config fetches the kiosk and the form it shows.
	Config(ctx context.Context, credential string) (*feedback.Kiosk, *feedback.FormView, error)
	// Heartbeat reports the kiosk alive with its queue depth.
	Heartbeat(ctx context.Context, credential string, hb feedback.Heartbeat) error
	// Enqueue stores a submission on the device for the next sync.
	Enqueue(ctx context.Context, id string, body []byte) error
	// Queue returns how many submissions wait and how many were refused.
	Queue() (pending, dead int)
	// Watch calls f after every change of the queue until cancel.
	Watch(f func()) (cancel func())
	// Sync asks the queue to send what waits now.
	Sync()
	// KeepAwake asks the screen to stay on (Screen Wake Lock).
	KeepAwake()
	// Version is the app's build id, reported in heartbeats.
	Version() string
}

var device Device

// UseDevice sets the device the kiosk runs on.
func UseDevice(d Device) { device = d }
